package attack

import (
	"math"
	"math/bits"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
)

// listPos is dpexact.SyntheticOrder(n, label) as positions: pos[w].
func listPos(n int, label string) []int {
	pos := make([]int, n)
	for p, w := range dpexact.SyntheticOrder(n, label) {
		pos[w] = p
	}
	return pos
}

// maxColumnGap is the largest |column − P[·][y]| over every output y.
func maxColumnGap(t *testing.T, c Column, P [][]float64) float64 {
	t.Helper()
	if c.Len() != len(P) {
		t.Fatalf("column over %d words, law over %d", c.Len(), len(P))
	}
	col := make([]float64, c.Len())
	gap := 0.0
	for y := range P {
		if err := c.Column(y, col); err != nil {
			t.Fatal(err)
		}
		for w := range P {
			gap = math.Max(gap, math.Abs(col[w]-P[w][y]))
		}
	}
	return gap
}

// TestColumnsMatchDpexact: each per-column formula equals the column of
// dpexact's N×N law (computed independently, row by row) on small
// vocabularies, over every output; negative control: the same column at
// 2ε differs from the law at ε.
func TestColumnsMatchDpexact(t *testing.T) {
	const n, L = 12, 10
	low := dpexact.SyntheticCodes(n, L, "attack/codes")
	hd := func(a, b int) float64 { return float64(bits.OnesCount64(low[a] ^ low[b])) }
	dH := dpexact.HammingDistances(low)
	p0, p1 := listPos(n, "attack/list0"), listPos(n, "attack/list1")
	allowed := make([]bool, n)
	for i := range allowed {
		allowed[i] = i%3 != 1
	}
	type build func(eps float64) (Column, error)
	geo := func(pos ...[]int) build {
		return func(eps float64) (Column, error) {
			var parts []Column
			for _, p := range pos {
				g, err := NewGeometric(p, eps)
				if err != nil {
					return nil, err
				}
				parts = append(parts, g)
			}
			return NewMixture(parts...)
		}
	}
	geoA := func(pos ...[]int) build {
		return func(eps float64) (Column, error) {
			var parts []Column
			for _, p := range pos {
				g, err := NewRestrictedGeometric(p, eps, allowed)
				if err != nil {
					return nil, err
				}
				parts = append(parts, g)
			}
			return NewMixture(parts...)
		}
	}
	only := func(w int) []bool {
		a := make([]bool, n)
		a[w] = true
		return a
	}
	geoOnly := func(p []int, w int) build {
		return func(eps float64) (Column, error) { return NewRestrictedGeometric(p, eps, only(w)) }
	}
	listTEMOver := func(allowed []bool, gamma float64, pos ...[]int) build {
		return func(eps float64) (Column, error) {
			var parts []Column
			for _, p := range pos {
				g, err := NewListTEM(p, gamma, eps, allowed)
				if err != nil {
					return nil, err
				}
				parts = append(parts, g)
			}
			return NewMixture(parts...)
		}
	}
	listTEM := func(gamma float64, pos ...[]int) build { return listTEMOver(nil, gamma, pos...) }
	groups := make([]int, n)
	for w := range groups {
		groups[w] = w % 3
	}
	stop := make([]bool, n)
	stop[2], stop[7], stop[5] = true, true, true // 5 is not allowed over A: it then follows CusText
	allowedSets := make([]bool, n)               // every set keeps allowed words (i%3 != 1 would empty set 1)
	for i := range allowedSets {
		allowedSets[i] = i%4 != 1
	}
	cus := func(stop, allowed []bool) build {
		return func(eps float64) (Column, error) { return NewCusText(n, hd, groups, stop, eps, allowed) }
	}
	ham := func(gamma float64, allowed []bool) build {
		return func(eps float64) (Column, error) { return NewTEM(n, hd, gamma, eps, allowed) }
	}
	for _, c := range []struct {
		name string
		col  build
		law  func(eps float64) ([][]float64, error)
		eps  float64
		// wrong is the control's column, at 2ε unless given (at γ = 0 the
		// law does not depend on ε: the ball is the word and its
		// duplicates, ⊥ scores ln(N − |L_w|) at every ε).
		wrong build
	}{
		{"1-DG one list", geo(p0), func(e float64) ([][]float64, error) { return dpexact.DiffractorGeometric([][]int{p0}, e) }, 0.4, nil},
		{"1-DG two lists", geo(p0, p1), func(e float64) ([][]float64, error) { return dpexact.DiffractorGeometric([][]int{p0, p1}, e) }, 0.9, nil},
		{"1-DG over A, one list", geoA(p0), func(e float64) ([][]float64, error) {
			return dpexact.RestrictedDiffractorGeometric([][]int{p0}, e, allowed)
		}, 0.4, nil},
		{"1-DG over A, two lists", geoA(p0, p1), func(e float64) ([][]float64, error) {
			return dpexact.RestrictedDiffractorGeometric([][]int{p0, p1}, e, allowed)
		}, 1.2, nil},
		{"1-DG over A, one allowed word", geoOnly(p0, 5), func(e float64) ([][]float64, error) {
			return dpexact.RestrictedDiffractorGeometric([][]int{p0}, e, only(5))
		}, 0.4, geoA(p0)},
		{"1-DT one list γ=3", listTEM(3, p0), func(e float64) ([][]float64, error) { return dpexact.DiffractorTEM([][]int{p0}, 3, e) }, 1, nil},
		{"1-DT two lists γ=2.5", listTEM(2.5, p0, p1), func(e float64) ([][]float64, error) { return dpexact.DiffractorTEM([][]int{p0, p1}, 2.5, e) }, 0.6, nil},
		{"1-DT γ=0", listTEM(0, p0), func(e float64) ([][]float64, error) { return dpexact.DiffractorTEM([][]int{p0}, 0, e) }, 1.5, listTEM(1, p0)},
		{"1-DT γ ≥ N", listTEM(40, p0), func(e float64) ([][]float64, error) { return dpexact.DiffractorTEM([][]int{p0}, 40, e) }, 0.3, nil},
		{"1-DT over A, two lists γ=3", listTEMOver(allowed, 3, p0, p1), func(e float64) ([][]float64, error) {
			return dpexact.RestrictedDiffractorTEM([][]int{p0, p1}, 3, e, allowed)
		}, 0.7, nil},
		{"CusText", cus(nil, nil), func(e float64) ([][]float64, error) { return dpexact.CusText(dH, groups, e, nil) }, 150, nil},
		{"CusText over A", cus(nil, allowedSets), func(e float64) ([][]float64, error) { return dpexact.CusText(dH, groups, e, allowedSets) }, 200, nil},
		{"CusText+", cus(stop, nil), func(e float64) ([][]float64, error) { return dpexact.CusTextPlus(dH, groups, stop, e, nil) }, 150, nil},
		{"CusText+ over A", cus(stop, allowedSets), func(e float64) ([][]float64, error) {
			return dpexact.CusTextPlus(dH, groups, stop, e, allowedSets)
		}, 150, nil},
		{"TEMHamming γ=3", ham(3, nil), func(e float64) ([][]float64, error) { return dpexact.TEM(dH, 3, e) }, 0.5, nil},
		{"TEMHamming γ=0", ham(0, nil), func(e float64) ([][]float64, error) { return dpexact.TEM(dH, 0, e) }, 1, ham(1, nil)},
		{"SanText (γ=256)", ham(256, nil), func(e float64) ([][]float64, error) { return dpexact.TEM(dH, 256, e) }, 1.5, nil},
		{"TEMHamming over A γ=4", ham(4, allowed), func(e float64) ([][]float64, error) { return dpexact.RestrictedTEM(dH, 4, e, allowed) }, 0.8, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			col, err := c.col(c.eps)
			if err != nil {
				t.Fatal(err)
			}
			P, err := c.law(c.eps)
			if err != nil {
				t.Fatal(err)
			}
			if gap := maxColumnGap(t, col, P); gap > 1e-12 {
				t.Errorf("column differs from dpexact's law by %.3g", gap)
			}
			wrong, err := c.col(2 * c.eps)
			if c.wrong != nil {
				wrong, err = c.wrong(c.eps)
			}
			if err != nil {
				t.Fatal(err)
			}
			if gap := maxColumnGap(t, wrong, P); gap < 1e-3 {
				t.Errorf("control: a wrong column is within %.3g of the law", gap)
			}
		})
	}
}

func TestColumnsRejectBadInput(t *testing.T) {
	dist := func(a, b int) float64 { return math.Abs(float64(a - b)) }
	bad := func(a, b int) float64 { return math.NaN() }
	for _, c := range []struct {
		name string
		f    func() (Column, error)
	}{
		{"matrix empty", func() (Column, error) { return NewMatrix(nil) }},
		{"matrix ragged", func() (Column, error) { return NewMatrix([][]float64{{1}, {0, 1}}) }},
		{"matrix row sum", func() (Column, error) { return NewMatrix([][]float64{{0.5, 0.4}, {0, 1}}) }},
		{"matrix NaN", func() (Column, error) { return NewMatrix([][]float64{{math.NaN(), 1}, {0, 1}}) }},
		{"geometric empty", func() (Column, error) { return NewGeometric(nil, 1) }},
		{"geometric repeated", func() (Column, error) { return NewGeometric([]int{0, 0}, 1) }},
		{"geometric ε=0", func() (Column, error) { return NewGeometric([]int{0, 1}, 0) }},
		{"geometric ε=Inf", func() (Column, error) { return NewGeometric([]int{0, 1}, math.Inf(1)) }},
		{"geometric ε=NaN", func() (Column, error) { return NewGeometric([]int{0, 1}, math.NaN()) }},
		{"tem N=0", func() (Column, error) { return NewTEM(0, dist, 1, 1, nil) }},
		{"tem nil metric", func() (Column, error) { return NewTEM(3, nil, 1, 1, nil) }},
		{"tem NaN metric", func() (Column, error) { return NewTEM(3, bad, 1, 1, nil) }},
		{"tem γ<0", func() (Column, error) { return NewTEM(3, dist, -1, 1, nil) }},
		{"tem γ=Inf", func() (Column, error) { return NewTEM(3, dist, math.Inf(1), 1, nil) }},
		{"tem nothing allowed", func() (Column, error) { return NewTEM(3, dist, 1, 1, []bool{false, false, false}) }},
		{"tem allowed short", func() (Column, error) { return NewTEM(3, dist, 1, 1, []bool{true}) }},
		{"restricted geometric nothing allowed", func() (Column, error) { return NewRestrictedGeometric([]int{0, 1}, 1, []bool{false, false}) }},
		{"restricted geometric allowed short", func() (Column, error) { return NewRestrictedGeometric([]int{0, 1}, 1, []bool{true}) }},
		{"list tem not a permutation", func() (Column, error) { return NewListTEM([]int{1, 2}, 1, 1, nil) }},
		{"custext sets short", func() (Column, error) { return NewCusText(3, dist, []int{0}, nil, 1, nil) }},
		{"custext ε=0", func() (Column, error) { return NewCusText(3, dist, []int{0, 0, 0}, nil, 0, nil) }},
		{"custext NaN metric", func() (Column, error) { return NewCusText(3, bad, []int{0, 0, 0}, nil, 1, nil) }},
		{"custext set without allowed word", func() (Column, error) {
			return NewCusText(3, dist, []int{0, 1, 1}, nil, 1, []bool{false, true, true})
		}},
		{"mixture empty", func() (Column, error) { return NewMixture() }},
		{"mixture nil part", func() (Column, error) { return NewMixture(nil) }},
	} {
		if col, err := c.f(); err == nil || col != nil && !isNilColumn(col) {
			t.Errorf("%s: got %v, %v; want an error", c.name, col, err)
		}
	}
	g, err := NewGeometric([]int{1, 0}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		y   int
		dst []float64
	}{{-1, make([]float64, 2)}, {2, make([]float64, 2)}, {0, make([]float64, 1)}, {0, nil}} {
		if err := g.Column(c.y, c.dst); err == nil {
			t.Errorf("Column(%d, len %d) accepted", c.y, len(c.dst))
		}
	}
}

// isNilColumn reports a typed nil pointer inside a Column.
func isNilColumn(c Column) bool {
	switch v := c.(type) {
	case *Matrix:
		return v == nil
	case *Geometric:
		return v == nil
	case *TEM:
		return v == nil
	case *Mixture:
		return v == nil
	case *CusText:
		return v == nil
	}
	return false
}

// TestZeroAndNilColumns: the zero value and a nil pointer of every
// Column are an empty law: Len 0, Column an error, never a panic.
func TestZeroAndNilColumns(t *testing.T) {
	for _, c := range []Column{
		&Matrix{}, (*Matrix)(nil), &Geometric{}, (*Geometric)(nil), &TEM{}, (*TEM)(nil),
		&CusText{}, (*CusText)(nil), &Mixture{}, (*Mixture)(nil),
	} {
		if c.Len() != 0 {
			t.Errorf("%T: Len %d", c, c.Len())
		}
		if err := c.Column(0, make([]float64, 1)); err == nil {
			t.Errorf("%T: Column accepted", c)
		}
	}
}
