package dpexact

import (
	"errors"
	"math"
	"testing"
)

// custextFixture: 7 words with 1-D "codes" at these bit counts, in sets
// {0,1,2} {3,4,5} {6}.
func custextFixture() ([][]float64, []int) {
	pos := []float64{0, 3, 40, 1, 90, 200, 7}
	d := Distances(len(pos), func(a, b int) float64 { return math.Abs(pos[a] - pos[b]) })
	return d, []int{0, 0, 0, 1, 1, 1, 2}
}

func TestCusTextLaw(t *testing.T) {
	d, groups := custextFixture()
	const eps = 3.0
	P, err := CusText(d, groups, eps, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Hand-computed row of word 0: weights exp(ε(1 − d/256)/2) for d =
	// 0, 3, 40.
	w := []float64{math.Exp(eps / 2), math.Exp(eps * (1 - 3.0/256) / 2), math.Exp(eps * (1 - 40.0/256) / 2)}
	z := w[0] + w[1] + w[2]
	for y, want := range []float64{w[0] / z, w[1] / z, w[2] / z, 0, 0, 0, 0} {
		if math.Abs(P[0][y]-want) > 1e-15 {
			t.Errorf("P(%d|0) = %v, want %v", y, P[0][y], want)
		}
	}
	if P[6][6] != 1 {
		t.Errorf("singleton set: P(6|6) = %v, want 1", P[6][6])
	}
	for _, tc := range []struct {
		name   string
		P      func() ([][]float64, error)
		metric func() ([][]float64, error)
		holds  bool
	}{
		{"CusText, same-set pairs", func() ([][]float64, error) { return CusText(d, groups, eps, nil) },
			func() ([][]float64, error) { return SameSet(d, groups, nil) }, true},
		{"CusText over A, same-set pairs", func() ([][]float64, error) {
			return CusText(d, groups, eps, []bool{false, true, true, true, false, true, true})
		}, func() ([][]float64, error) { return SameSet(d, groups, nil) }, true},
		{"CusText, all pairs at ε (sets disclosed)", func() ([][]float64, error) { return CusText(d, groups, eps, nil) },
			func() ([][]float64, error) { return discrete(7), nil }, false},
		{"CusText is ε-DP within sets", func() ([][]float64, error) { return CusText(d, groups, eps, nil) },
			func() ([][]float64, error) {
				return Distances(7, func(a, b int) float64 {
					if a == b {
						return 0
					}
					if groups[a] == groups[b] {
						return 1
					}
					return math.Inf(1)
				}), nil
			}, true},
		{"control: no 1/2", func() ([][]float64, error) { return CusTextNoHalf(d, groups, eps) },
			func() ([][]float64, error) { return SameSet(d, groups, nil) }, false},
		{"CusText+, non-stop same-set pairs", func() ([][]float64, error) {
			return CusTextPlus(d, groups, []bool{false, true, false, false, false, false, false}, eps, nil)
		}, func() ([][]float64, error) {
			return SameSet(d, groups, []bool{false, true, false, false, false, false, false})
		}, true},
		{"CusText+, same-set pairs with the stop word", func() ([][]float64, error) {
			return CusTextPlus(d, groups, []bool{false, true, false, false, false, false, false}, eps, nil)
		}, func() ([][]float64, error) { return SameSet(d, groups, nil) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			P, err := tc.P()
			if err != nil {
				t.Fatal(err)
			}
			m, err := tc.metric()
			if err != nil {
				t.Fatal(err)
			}
			r, err := Check(P, m, eps, 1e-9)
			if err != nil {
				t.Fatal(err)
			}
			if r.Holds() != tc.holds {
				t.Fatalf("holds = %v, want %v (excess %v at %d,%d,%d)", r.Holds(), tc.holds, r.Excess, r.W, r.W2, r.Y)
			}
		})
	}
}

func TestCusTextInvalid(t *testing.T) {
	d, groups := custextFixture()
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"set with no allowed word", func() error {
			_, err := CusText(d, groups, 1, []bool{true, true, true, true, true, true, false})
			return err
		}()},
		{"groups too short", func() error { _, err := CusText(d, groups[:3], 1, nil); return err }()},
		{"eps 0", func() error { _, err := CusText(d, groups, 0, nil); return err }()},
		{"stop set too short", func() error { _, err := CusTextPlus(d, groups, []bool{true}, 1, nil); return err }()},
		{"metric: groups too short", func() error { _, err := SameSet(d, groups[:2], nil); return err }()},
	} {
		if !errors.Is(tc.err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tc.name, tc.err)
		}
	}
}

// discrete is the metric 1 between distinct words: Check at ε against it
// is plain ε-DP over every pair.
func discrete(n int) [][]float64 {
	return Distances(n, func(a, b int) float64 {
		if a == b {
			return 0
		}
		return 1
	})
}
