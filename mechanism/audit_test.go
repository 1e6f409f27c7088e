package mechanism

import (
	"github.com/wordveil/wordveil/internal/keepwords"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/internal/dpexact"
)

// auditCase pairs a real mechanism with its exact distribution (computed
// independently by package dpexact, not by the sampler) and the metric of
// its guarantee. The tests that audit them are in exact_ext_test.go;
// concurrency_test.go uses them too.
type auditCase struct {
	name string
	mech Mechanism
	P    [][]float64 // exact P[w][y]
	d    [][]float64 // metric of the guarantee
	eps  float64
}

func auditCases(t testing.TB) []auditCase {
	t.Helper()
	var cases []auditCase
	must := func(m Mechanism, err error) Mechanism {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	law := func(P [][]float64, err error) [][]float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return P
	}

	// restricted is m over outputs without the excluded ids, and the
	// allowed set for dpexact.
	restricted := func(m Mechanism, excluded ...int) (Mechanism, []bool) {
		t.Helper()
		o, allowed := testOutputs(t, m.Len(), excluded...)
		r, err := Restrict(m, o)
		if err != nil {
			t.Fatal(err)
		}
		return r, allowed
	}

	// BRR on short synthetic codes, and restricted: words 0 and 1 share a
	// code (0 excluded, 1 allowed), 8 and 15 are sampled inputs.
	for _, c := range []struct {
		n, L int
		eps  float64
	}{{16, 10, 0.3}, {16, 10, 1.0}, {24, 12, 0.6}} {
		low, codes := syntheticCodes(c.n, c.L, "brr")
		m := must(newBRR(newIndex(t, codes), c.eps))
		cases = append(cases, auditCase{
			name: "BRR/L=" + itoa(c.L) + "/eps=" + ftoa(c.eps),
			mech: m,
			P:    law(dpexact.BRR(low, c.L, c.eps)),
			d:    hammingMatrix(low), eps: c.eps,
		})
		r, allowed := restricted(m, 0, 2, 3, c.n/2, c.n-1)
		cases = append(cases, auditCase{
			name: "BRR/outputs/L=" + itoa(c.L) + "/eps=" + ftoa(c.eps),
			mech: r,
			P:    law(dpexact.RestrictedBRR(low, c.L, c.eps, allowed)),
			d:    hammingMatrix(low), eps: c.eps,
		})
	}

	// TEM on Hamming codes: given small radii (a real ⊥) and Theorem 4.2.
	{
		low, codes := syntheticCodes(20, 10, "temh")
		d := hammingMatrix(low)
		for _, c := range []struct{ eps, gamma float64 }{{0.5, 3}, {1.5, 2.5}, {1, 0}, {0.8, 5}} {
			m := must(newTEMHamming(newIndex(t, codes), c.eps, TEMOptions{Gamma: c.gamma})).(*temHammingMech)
			cases = append(cases, auditCase{
				name: "TEMHamming/eps=" + ftoa(c.eps) + "/gamma=" + ftoa(m.Gamma()),
				mech: m, P: law(dpexact.TEM(d, m.Gamma(), c.eps)), d: d, eps: c.eps,
			})
			// Both copies of the centre code excluded: input 0 has no
			// allowed word at distance 0.
			r, allowed := restricted(m, 0, 1, 3, 10, 19)
			cases = append(cases, auditCase{
				name: "TEMHamming/outputs/eps=" + ftoa(c.eps) + "/gamma=" + ftoa(m.Gamma()),
				mech: r, P: law(dpexact.RestrictedTEM(d, m.Gamma(), c.eps, allowed)), d: d, eps: c.eps,
			})
		}
	}

	// SanText (TEM (Hamming) at γ = 256) and SanText+ on the same codes.
	// SanText+'s guarantee covers pairs of sensitive words only: its
	// metric is d on those pairs, +Inf (unconstrained) elsewhere; that it
	// violates ε·d on the other pairs, by design, is tested in
	// santext_test.go.
	{
		low, codes := syntheticCodes(20, 10, "temh")
		d := hammingMatrix(low)
		for _, eps := range []float64{0.5, 1.5} {
			m := must(newSanText(newIndex(t, codes), eps))
			cases = append(cases, auditCase{
				name: "SanText/eps=" + ftoa(eps),
				mech: m, P: law(dpexact.SanText(d, eps)), d: d, eps: eps,
			})
			r, allowed := restricted(m, 0, 1, 3, 10, 19)
			cases = append(cases, auditCase{
				name: "SanText/outputs/eps=" + ftoa(eps),
				mech: r, P: law(dpexact.RestrictedSanText(d, eps, allowed)), d: d, eps: eps,
			})
		}
		for _, c := range []struct{ eps, w, p float64 }{{0.5, 0.4, 0.2}, {1.5, 0.4, 0.9}, {0.8, 0.25, 1}} {
			m := must(newSanTextPlus(newIndex(t, codes), c.eps, keepwords.SanTextPlusOptions{Sensitive: c.w, P: c.p}, nil)).(*santextPlusMech)
			sens := make([]bool, len(low))
			for i := m.first; i < len(sens); i++ {
				sens[i] = true
			}
			ds := law(dpexact.SensitivePairs(d, sens))
			name := "SanText+/eps=" + ftoa(c.eps) + "/w=" + ftoa(c.w) + "/p=" + ftoa(c.p)
			cases = append(cases, auditCase{
				name: name,
				mech: m, P: law(dpexact.SanTextPlus(d, c.eps, sens, c.p, nil)), d: ds, eps: c.eps,
			})
			// Excluded: non-sensitive 0, 1, 3 and sensitive 19.
			r, allowed := restricted(m, 0, 1, 3, 19)
			cases = append(cases, auditCase{
				name: strings.Replace(name, "SanText+/", "SanText+/outputs/", 1),
				mech: r, P: law(dpexact.SanTextPlus(d, c.eps, sens, c.p, allowed)), d: ds, eps: c.eps,
			})
		}
	}

	// TEM on the default asset's Euclidean balls, restricted to a subset.
	s := assetSubset(t)
	for _, c := range []struct{ eps, gamma float64 }{{6, 0}, {1, 3}, {2, s.gammaMax}, {0.7, 3.6}} {
		m := must(newTEM(s.tem, c.eps, TEMOptions{Gamma: c.gamma})).(*temMech)
		cases = append(cases, auditCase{
			name: "TEM/asset/eps=" + ftoa(c.eps) + "/gamma=" + ftoa(m.Gamma()),
			mech: m, P: law(dpexact.TEM(s.dist, m.Gamma(), c.eps)), d: s.auditD, eps: c.eps,
		})
		// "good" (0) and its nearest neighbours excluded.
		n := m.Len()
		r, allowed := restricted(m, 0, 1, 2, n/2, n-1)
		cases = append(cases, auditCase{
			name: "TEM/outputs/asset/eps=" + ftoa(c.eps) + "/gamma=" + ftoa(m.Gamma()),
			mech: r, P: law(dpexact.RestrictedTEM(s.dist, m.Gamma(), c.eps, allowed)), d: s.auditD, eps: c.eps,
		})
	}

	// 1-DG and 1-DT on the asset subset's lists (one and both) and on a
	// synthetic list.
	lp, lpos := syntheticList(t, 30, "list")
	for _, ls := range []struct {
		name  string
		lists []wva.Permutation
		pos   [][]int
	}{
		{"asset-list0", s.lists[:1], s.pos[:1]},
		{"asset-lists", s.lists, s.pos},
		{"synthetic", []wva.Permutation{lp}, [][]int{lpos}},
	} {
		var ds [][][]float64
		for _, p := range ls.pos {
			ds = append(ds, law(dpexact.ListDistances(p)))
		}
		d := law(dpexact.MaxMetric(ds...))
		// Excluded: the first word, the middle one, the last one, and the
		// first list's positions 1..3 (a run around a position).
		n := len(ls.pos[0])
		order := make([]int, n)
		for w, p := range ls.pos[0] {
			order[p] = w
		}
		excluded := []int{0, n / 2, n - 1, order[1], order[2], order[3]}
		for _, eps := range []float64{0.2, 0.9} {
			m := must(newDG(ls.lists, eps))
			cases = append(cases, auditCase{
				name: "1-DG/" + ls.name + "/eps=" + ftoa(eps),
				mech: m,
				P:    law(dpexact.DiffractorGeometric(ls.pos, eps)), d: d, eps: eps,
			})
			r, allowed := restricted(m, excluded...)
			cases = append(cases, auditCase{
				name: "1-DG/outputs/" + ls.name + "/eps=" + ftoa(eps),
				mech: r,
				P:    law(dpexact.RestrictedDiffractorGeometric(ls.pos, eps, allowed)), d: d, eps: eps,
			})
		}
		for _, c := range []struct{ eps, gamma float64 }{{0.4, 5}, {1, 3}, {0.5, 0}, {2.5, 0}} {
			m := must(newDT(ls.lists, c.eps, TEMOptions{Gamma: c.gamma})).(*dtMech)
			cases = append(cases, auditCase{
				name: "1-DT/" + ls.name + "/eps=" + ftoa(c.eps) + "/gamma=" + ftoa(m.Gamma()),
				mech: m, P: law(dpexact.DiffractorTEM(ls.pos, m.Gamma(), c.eps)), d: d, eps: c.eps,
			})
			r, allowed := restricted(m, excluded...)
			cases = append(cases, auditCase{
				name: "1-DT/outputs/" + ls.name + "/eps=" + ftoa(c.eps) + "/gamma=" + ftoa(m.Gamma()),
				mech: r, P: law(dpexact.RestrictedDiffractorTEM(ls.pos, m.Gamma(), c.eps, allowed)), d: d, eps: c.eps,
			})
		}
	}
	// CusText and CusText+ on 20 synthetic codes in 5 sets of 4 (word w
	// in set w mod 5), words 0 and 7 stop words; restricted without 0, 7
	// and 13 (every set keeps a word). The metric is SameSet: (1/256)·d
	// within a set, pairs with a stop word unconstrained for CusText+.
	{
		ct, stop := custextTestAsset(t, 20, 5)
		d := hammingMatrix(ct.low)
		groups := make([]int, 20)
		for w := range groups {
			groups[w] = w % 5
		}
		same := law(dpexact.SameSet(d, groups, nil))
		samePlus := law(dpexact.SameSet(d, groups, stop))
		for _, eps := range []float64{2, 150} {
			m := must(NewCusText(ct.a, eps))
			cases = append(cases, auditCase{name: "CusText/eps=" + ftoa(eps), mech: m,
				P: law(dpexact.CusText(d, groups, eps, nil)), d: same, eps: eps})
			r, allowed := restricted(m, 0, 7, 13)
			cases = append(cases, auditCase{name: "CusText/outputs/eps=" + ftoa(eps), mech: r,
				P: law(dpexact.CusText(d, groups, eps, allowed)), d: same, eps: eps})
			mp := must(newCusTextPlus(ct.a, eps))
			cases = append(cases, auditCase{name: "CusText+/eps=" + ftoa(eps), mech: mp,
				P: law(dpexact.CusTextPlus(d, groups, stop, eps, nil)), d: samePlus, eps: eps})
			r, allowed = restricted(mp, 0, 13)
			cases = append(cases, auditCase{name: "CusText+/outputs/eps=" + ftoa(eps), mech: r,
				P: law(dpexact.CusTextPlus(d, groups, stop, eps, allowed)), d: samePlus, eps: eps})
		}
	}
	return cases
}

// testOutputs is the output vocabulary of n words without excluded, and
// the same set as dpexact takes it.
func testOutputs(t testing.TB, n int, excluded ...int) (*Outputs, []bool) {
	t.Helper()
	o, err := NewOutputs(n, excluded)
	if err != nil {
		t.Fatal(err)
	}
	allowed := make([]bool, n)
	for i := range allowed {
		allowed[i] = o.Allowed(i)
	}
	return o, allowed
}
