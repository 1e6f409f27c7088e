#!/usr/bin/env python3
"""Reference values for internal/stattest's ChiSquare (chisquare_ref_test.go).

Written independently of the Go code, from ChiSquare's documented rule:
cells of expected count below 5 are pooled into one cell; if that pooled
cell's expected count is still below 5 it is merged into the other cell of
smallest expected count (the first such, in index order); a cell of
probability 0 is dropped when empty and gives p-value 0 when not; with
fewer than two cells the p-value is 1.

The statistic is computed exactly with fractions.Fraction (the probabilities
are the strings below, decimals or quotients, read exactly; the Go test
writes them as the same Go expressions), and the p-value, the
chi-square survival function Q(df/2, stat/2), with mpmath.gammainc
(regularized, upper) at 40 significant digits. Run: python3 chisquare_ref.py
(python3 3.x with mpmath 1.3.0; prints the Go table rows).
"""
from fractions import Fraction
import mpmath

mpmath.mp.dps = 40

CASES = [
    # name, counts, probabilities (decimal strings)
    ("uniform 4 cells", [10, 20, 30, 40], ["0.25"] * 4),
    ("fit", [52, 29, 19], ["0.5", "0.3", "0.2"]),
    ("pool below 5 merged into the smallest cell", [9, 48, 7, 31, 4, 1], ["0.1", "0.5", "0.06", "0.3", "0.03", "0.01"]),
    ("pool of 5 or more kept as a cell; expected 5 not pooled", [28, 33, 15, 1, 2, 4, 7, 9, 1], ["0.3", "0.3", "0.15", "0.04", "0.04", "0.04", "0.04", "0.04", "0.05"]),
    ("empty zero-probability cell dropped", [20, 0, 30, 50], ["0.25", "0", "0.25", "0.5"]),
    ("a draw in a zero-probability cell", [25, 1, 25, 49], ["0.25", "0", "0.25", "0.5"]),
    ("many cells (continued fraction)", [100 + (i * 37) % 41 - 20 for i in range(60)], ["1.0/60"] * 60),
    ("far in the tail", [900, 50, 50], ["0.6", "0.2", "0.2"]),
    ("every cell small: one pooled cell", [1, 2, 1, 1], ["0.25"] * 4),
]


def chisquare(counts, probs):
    p = [Fraction(x.replace(".0/", "/")) for x in probs]
    total = sum(counts)
    cells, pool = [], [Fraction(0), Fraction(0)]
    for c, q in zip(counts, p):
        e = q * total
        if q == 0:
            if c > 0:
                return None, 0, mpmath.mpf(0)
            continue
        if e < 5:
            pool[0] += c
            pool[1] += e
            continue
        cells.append([Fraction(c), e])
    if pool[1] > 0:
        if pool[1] < 5 and cells:
            k = min(range(len(cells)), key=lambda i: (cells[i][1], i))
            cells[k][0] += pool[0]
            cells[k][1] += pool[1]
        else:
            cells.append(pool)
    stat = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    if df < 1:
        return stat, df, mpmath.mpf(1)
    x = mpmath.mpf(stat.numerator) / stat.denominator
    return stat, df, mpmath.gammainc(mpmath.mpf(df) / 2, x / 2, mpmath.inf, regularized=True)


for name, counts, probs in CASES:
    stat, df, pv = chisquare(counts, probs)
    s = "math.Inf(1)" if stat is None else mpmath.nstr(mpmath.mpf(stat.numerator) / stat.denominator, 17)
    go_counts = "[]int{" + ", ".join(map(str, counts)) + "}"
    go_probs = "[]float64{" + ", ".join(probs) + "}"
    print('{"%s", %s, %s, %s, %d, %s},' % (name, go_counts, go_probs, s, df, mpmath.nstr(pv, 17)))
