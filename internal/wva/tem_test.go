package wva

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteBall returns w's ball from the constructor's input, in Ball's order.
func bruteBall(balls [][]Neighbor, w int) []Neighbor {
	out := []Neighbor{{ID: uint32(w)}}
	var rest []Neighbor
	for _, e := range balls[w] {
		if int(e.ID) != w {
			rest = append(rest, e)
		}
	}
	slices.SortFunc(rest, func(a, b Neighbor) int {
		return cmp.Or(cmp.Compare(a.Dist, b.Dist), cmp.Compare(a.ID, b.ID))
	})
	return append(out, rest...)
}

func TestTEMBall(t *testing.T) {
	for _, tc := range []struct {
		n, neighbors int
		g            uint32
	}{{1, 0, 1}, {2, 1, 1}, {50, 5, 3}, {500, 20, 450}, {300, 200, 7}, {70000, 3, 1 << 20}} {
		r := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.g)))
		balls := genBalls(r, tc.n, tc.neighbors, tc.g)
		// Include self in some balls: the constructor drops it.
		for w := 0; w < tc.n; w += 3 {
			balls[w] = append(balls[w], Neighbor{ID: uint32(w)})
		}
		tem, err := NewTEMLists(tc.n, 0.25, tc.g, balls)
		if err != nil {
			t.Fatal(err)
		}
		var buf []Neighbor
		var pairs uint64
		for w := 0; w < tc.n; w++ {
			want := bruteBall(balls, w)
			buf = tem.Ball(w, buf[:0])
			if !slices.Equal(buf, want) {
				t.Fatalf("n=%d: Ball(%d) = %v, want %v", tc.n, w, buf, want)
			}
			if tem.Count(w) != len(want) {
				t.Fatalf("Count(%d) = %d, want %d", w, tem.Count(w), len(want))
			}
			for _, e := range want[1:] {
				if int(e.ID) > w {
					pairs++
				}
			}
			for _, k := range []uint32{0, 1, tc.g / 2, tc.g} {
				got := tem.BallWithin(w, k, nil)
				var exp []Neighbor
				for _, e := range want {
					if e.Dist <= k {
						exp = append(exp, e)
					}
				}
				if !slices.Equal(got, exp) {
					t.Fatalf("BallWithin(%d, %d) = %v, want %v", w, k, got, exp)
				}
			}
		}
		if tem.Pairs() != pairs || tem.Len() != tc.n || tem.MaxSteps() != tc.g || tem.Step() != 0.25 {
			t.Fatalf("accessors: pairs %d/%d", tem.Pairs(), pairs)
		}
		if tem.SizeBytes() <= 0 {
			t.Fatal("SizeBytes")
		}
	}
}

func TestBallAppends(t *testing.T) {
	tem, err := NewTEMLists(3, 1, 5, [][]Neighbor{{{ID: 2, Dist: 5}}, {}, {{ID: 0, Dist: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	prefix := []Neighbor{{ID: 9, Dist: 9}}
	got := tem.Ball(0, prefix)
	want := []Neighbor{{ID: 9, Dist: 9}, {ID: 0}, {ID: 2, Dist: 5}}
	if !slices.Equal(got, want) {
		t.Fatalf("Ball appended %v, want %v", got, want)
	}
	buf := make([]Neighbor, 0, 8)
	if allocs := testing.AllocsPerRun(100, func() { buf = tem.Ball(2, buf[:0]) }); allocs != 0 {
		t.Fatalf("Ball with capacity allocates %v times", allocs)
	}
	for _, w := range []int{-1, 3} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Ball(%d) did not panic", w)
				}
			}()
			tem.Ball(w, nil)
		}()
	}
}

func TestNewTEMListsInvalid(t *testing.T) {
	for _, tc := range []struct {
		name  string
		n     int
		step  float64
		g     uint32
		balls [][]Neighbor
	}{
		{"ball count", 2, 1, 1, [][]Neighbor{{}}},
		{"zero step", 1, 0, 1, [][]Neighbor{{}}},
		{"NaN step", 1, math.NaN(), 1, [][]Neighbor{{}}},
		{"infinite step", 1, math.Inf(1), 1, [][]Neighbor{{}}},
		{"zero maxSteps", 1, 1, 0, [][]Neighbor{{}}},
		{"gamma overflow", 1, math.MaxFloat64, 4, [][]Neighbor{{}}},
		{"negative n", -1, 1, 1, nil},
		{"id out of range", 2, 1, 3, [][]Neighbor{{{ID: 2, Dist: 1}}, {}}},
		{"distance above maxSteps", 2, 1, 3, [][]Neighbor{{{ID: 1, Dist: 4}}, {{ID: 0, Dist: 4}}}},
		{"self at distance", 2, 1, 3, [][]Neighbor{{{ID: 0, Dist: 1}}, {}}},
		{"duplicate", 2, 1, 3, [][]Neighbor{{{ID: 1, Dist: 1}, {ID: 1, Dist: 1}}, {{ID: 0, Dist: 1}}}},
		{"missing reverse", 3, 1, 3, [][]Neighbor{{{ID: 1, Dist: 1}}, {}, {}}},
		{"asymmetric distance", 2, 1, 3, [][]Neighbor{{{ID: 1, Dist: 1}}, {{ID: 0, Dist: 2}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewTEMLists(tc.n, tc.step, tc.g, tc.balls); !errors.Is(err, ErrInvalid) {
				t.Fatalf("NewTEMLists = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestQuantize(t *testing.T) {
	for _, tc := range []struct {
		d, step float64
		want    uint32
		ok      bool
	}{
		{0, 0.01, 0, true},
		{0.01, 0.01, 1, true},
		{0.0100001, 0.01, 2, true},
		{3.34, 0.5, 7, true},
		{3.5, 0.5, 7, true},
		{-1, 1, 0, false},
		{math.NaN(), 1, 0, false},
		{math.Inf(1), 1, 0, false},
		{1, 0, 0, false},
		{1, -1, 0, false},
		{1e10, 1, 0, false},
	} {
		got, err := Quantize(tc.d, tc.step)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Quantize(%v, %v) = %d, %v; want %d, ok=%v", tc.d, tc.step, got, err, tc.want, tc.ok)
		}
	}
}

// TestQuantizedTriangle checks the property the ceil argument relies on,
// on random triangles: quantized distances keep the triangle inequality,
// which rounding to nearest would not.
func TestQuantizedTriangle(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	const q = 0.1
	for range 100000 {
		ab, bc := r.Float64()*3, r.Float64()*3
		ac := r.Float64() * (ab + bc) // any c with d(a,c) ≤ d(a,b) + d(b,c)
		qab, _ := Quantize(ab, q)
		qbc, _ := Quantize(bc, q)
		qac, _ := Quantize(ac, q)
		if qac > qab+qbc {
			t.Fatalf("⌈%v⌉ > ⌈%v⌉ + ⌈%v⌉ at step %v", ac, ab, bc, q)
		}
	}
	// The counterexample for rounding to nearest, for the record.
	if math.Round(0.8/q*1.0) <= math.Round(0.04/q)+math.Round(0.04/q) {
		t.Fatal("counterexample broken")
	}
}

func TestStepsFor(t *testing.T) {
	tem, err := NewTEMLists(1, 0.1, 45, [][]Neighbor{{}})
	if err != nil {
		t.Fatal(err)
	}
	if g := tem.GammaMax(); g != 45*0.1 {
		t.Fatalf("GammaMax = %v", g)
	}
	for _, tc := range []struct {
		gamma float64
		want  uint32
		err   error
	}{
		{0, 0, nil}, {0.05, 0, nil}, {0.1, 1, nil},
		// 3·0.1 rounds to 0.30000000000000004 > 0.3: StepsFor agrees with
		// the float products the mechanism compares, not with decimal.
		{0.3, 2, nil}, {0.30000000000000004, 3, nil},
		{3.55, 35, nil}, {tem.GammaMax(), 45, nil},
		{4.6, 0, ErrGammaMax}, {math.Inf(1), 0, ErrGammaMax},
	} {
		got, err := tem.StepsFor(tc.gamma)
		if !errors.Is(err, tc.err) || got != tc.want {
			t.Errorf("StepsFor(%v) = %d, %v; want %d, %v", tc.gamma, got, err, tc.want, tc.err)
		}
		if err == nil && (float64(got)*0.1 > tc.gamma || (got < 45 && float64(got+1)*0.1 <= tc.gamma)) {
			t.Errorf("StepsFor(%v) = %d is not the largest k with k·q ≤ γ", tc.gamma, got)
		}
	}
	for _, g := range []float64{-1, math.NaN()} {
		if _, err := tem.StepsFor(g); err == nil {
			t.Errorf("StepsFor(%v) accepted", g)
		}
	}
}
