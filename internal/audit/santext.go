package audit

import (
	"fmt"
	"math"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/keepwords"
	"github.com/wordveil/wordveil/internal/mechanism"
)

// sanTextPlusCase is the SanText+ setting audited: ε, the sensitive
// fraction w and the sampling probability p.
type sanTextPlusCase struct{ eps, w, p float64 }

// sanTextCases audits SanText (all pairs) and SanText+ (pairs of
// sensitive words: the metric is +Inf on any pair with a non-sensitive
// word) on codes, unrestricted and over everyThird. SanText+'s law is
// also audited on ALL pairs as an expected violation, by design: a
// non-sensitive word released unchanged is disclosed outright.
func sanTextCases(t *Table, codes []hamming.Code, vocab string, epss []float64, plus []sanTextPlusCase) error {
	d := hammingDistances(codes)
	x := mustIndex(codes)
	for _, eps := range epss {
		m, err := mechanism.NewSanText(x, eps)
		if err != nil {
			return err
		}
		P, err := dpexact.SanText(d, m.Epsilon())
		t.addMech(m, "SanText", eps, vocab, P, err, d)
		r, allowed, err := restrictEveryThird(m, nil)
		if err != nil {
			return err
		}
		P, err = dpexact.RestrictedSanText(d, r.Epsilon(), allowed)
		t.addMech(r, "SanText over A", eps, vocab+excludedNote, P, err, d)
	}
	for _, c := range plus {
		m, err := keepwords.NewSanTextPlus(x, c.eps, keepwords.SanTextPlusOptions{Sensitive: c.w, P: c.p})
		if err != nil {
			return err
		}
		sens := sensitiveSet(len(codes), c.w)
		ds, err := dpexact.SensitivePairs(d, sens)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("SanText+ w=%s p=%s", FormatFloat(c.w), FormatFloat(c.p))
		P, err := dpexact.SanTextPlus(d, m.Epsilon(), sens, c.p, nil)
		t.addMech(m, name+", sensitive pairs", c.eps, vocab, P, err, ds)
		if c.p < 1 {
			t.add("expected violation (by design): "+name+", all pairs", true, c.eps, vocab, P, err, d)
		}
		r, allowed, err := restrictEveryThird(m, nil)
		if err != nil {
			return err
		}
		P, err = dpexact.SanTextPlus(d, r.Epsilon(), sens, c.p, allowed)
		t.addMech(r, name+" over A, sensitive pairs", c.eps, vocab+excludedNote, P, err, ds)
	}
	return nil
}

// sanTextControls adds SanText's negative controls on codes: the
// exponential mechanism without its factor 1/2, SanText never releasing
// its input, and SanText+ keeping sensitive words too (audited on
// sensitive pairs, where it must fail).
func sanTextControls(t *Table, codes []hamming.Code, vocab string) {
	const eps = 0.5
	d := hammingDistances(codes)
	P, err := dpexact.SanTextNoHalf(d, eps)
	t.add("control: SanText scored exp(−ε·d), no 1/2", true, eps, vocab, P, err, d)
	P, err = dpexact.SanText(d, eps)
	if err == nil {
		P, err = dpexact.ExcludeInput(P)
	}
	t.add("control: input exclusion (SanText)", true, eps, vocab, P, err, d)
	sens := sensitiveSet(len(codes), 0.4)
	ds, err := dpexact.SensitivePairs(d, sens)
	if err == nil {
		P, err = dpexact.SanTextPlusKeepsSensitive(d, eps, sens, 0.2)
	}
	t.add("control: SanText+ keeping sensitive words, sensitive pairs", true, eps, vocab, P, err, ds)
}

// sensitiveSet is SanText+'s sensitive set as documented, computed here
// independently of the mechanism: the ⌈w·n⌉ highest ids.
func sensitiveSet(n int, w float64) []bool {
	k := min(int(math.Ceil(w*float64(n))), n)
	s := make([]bool, n)
	for i := n - k; i < n; i++ {
		s[i] = true
	}
	return s
}
