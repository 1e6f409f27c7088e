#!/usr/bin/env python3
"""Turns `go test ./internal/hamming/ -bench ...` output into the tables of
docs/BENCHMARKS.md (medians over -count runs).

    WV_BENCH_CODES=/tmp/glove200k.codes go test ./internal/hamming/ -run '^$' \\
        -bench 'Scan|Range|NN|Kernel|Chain' -benchtime 0.3s -count 6 > bench-hamming.txt
    python3 bench/hamming_report.py bench-hamming.txt
"""
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^Benchmark(\S+?)-\d+\s+\d+\s+(.*)$")


def load(path):
    vals = defaultdict(lambda: defaultdict(list))
    for line in open(path):
        m = LINE.match(line.strip())
        if not m:
            continue
        fields = m.group(2).split()
        for v, unit in zip(fields[0::2], fields[1::2]):
            vals[m.group(1)][unit].append(float(v))
    return {k: {u: statistics.median(v) for u, v in d.items()} for k, d in vals.items()}


def us(ns):
    return f"{ns / 1e3:.2f}" if ns >= 1e3 else f"{ns / 1e3:.3f}"


def main(path):
    med = load(path)
    sets = []
    for k in med:
        if k.startswith("Scan/"):
            sets.append(k[len("Scan/"):])
    print("### Kernels (one 256-code block, in L1)\n")
    print("| kernel | ns/code |\n|---|---|")
    for k in sorted(x for x in med if x.startswith("Kernel/")):
        print(f"| {k.split('=')[1]} | {med[k]['ns/code']:.3f} |")
    print("\n### Exact 1-NN scan (random tie-breaking), far queries\n")
    print("| data | N | µs/query | ns/code |\n|---|---|---|---|")
    for s in sets:
        d, n = s.split("/")
        r = med["Scan/" + s]
        print(f"| {d} | {n[2:]} | {us(r['ns/op'])} | {r['ns/code']:.3f} |")
    worst = (0, "")
    for kind, var, vals in (("Range", "r", (0, 8, 16, 32, 48)), ("NN", "flips", (5, 40, 80))):
        title = ("### Range search: every code within r of a database code"
                 if kind == "Range" else "### Exact 1-NN of a database code with bits flipped")
        print(f"\n{title}\n")
        print(f"| data | N | {var} | scan µs | MIH µs | scan ÷ MIH | planner ÷ better (interleaved) |")
        print("|---|---|---|---|---|---|---|")
        for s in sets:
            d, n = s.split("/")
            for v in vals:
                base = f"{kind}/{s}/{var}={v}"
                sc, mi, il = med.get(base + "/scan"), med.get(base + "/mih"), med.get(base + "/mih+planner")
                if not (sc and mi and il):
                    continue
                ratio = il["planner/best"]
                if ratio > worst[0]:
                    worst = (ratio, base)
                print(f"| {d} | {n[2:]} | {v} | {us(sc['ns/op'])} | {us(mi['ns/op'])} | "
                      f"{sc['ns/op'] / mi['ns/op']:.1f}× | {ratio:.2f} |")
    print(f"\nWorst planner ÷ better strategy over the sweep: {worst[0]:.2f} ({worst[1]}).")
    if "Chain50k" in med:
        print(f"\nGreedy chain (one 1-Diffractor list) over 50k clustered codes: {med['Chain50k']['ns/op'] / 1e9:.2f} s.")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "bench-hamming.txt")
