package mechanism

import (
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

	// BRR on short synthetic codes.
	for _, c := range []struct {
		n, L int
		eps  float64
	}{{16, 10, 0.3}, {16, 10, 1.0}, {24, 12, 0.6}} {
		low, codes := syntheticCodes(c.n, c.L, "brr")
		cases = append(cases, auditCase{
			name: "BRR/L=" + itoa(c.L) + "/eps=" + ftoa(c.eps),
			mech: must(newBRR(newIndex(t, codes), c.eps)),
			P:    law(dpexact.BRR(low, c.L, c.eps)),
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
		for _, eps := range []float64{0.2, 0.9} {
			cases = append(cases, auditCase{
				name: "1-DG/" + ls.name + "/eps=" + ftoa(eps),
				mech: must(newDG(ls.lists, eps)),
				P:    law(dpexact.DiffractorGeometric(ls.pos, eps)), d: d, eps: eps,
			})
		}
		for _, c := range []struct{ eps, gamma float64 }{{0.4, 5}, {1, 3}, {0.5, 0}, {2.5, 0}} {
			m := must(newDT(ls.lists, c.eps, TEMOptions{Gamma: c.gamma})).(*dtMech)
			cases = append(cases, auditCase{
				name: "1-DT/" + ls.name + "/eps=" + ftoa(c.eps) + "/gamma=" + ftoa(m.Gamma()),
				mech: m, P: law(dpexact.DiffractorTEM(ls.pos, m.Gamma(), c.eps)), d: d, eps: c.eps,
			})
		}
	}
	return cases
}
