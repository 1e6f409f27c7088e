package dpexact

import (
	"errors"
	"testing"
)

// FuzzFloatLaws: for any small vocabulary of float vectors and any ε,
// SynTF and TruncGumbel either refuse with ErrInvalid (and no matrix) or
// return a conditional distribution whose rows sum to 1 within 1e-12;
// neither panics.
func FuzzFloatLaws(f *testing.F) {
	f.Add([]byte{8, 0, 16, 0, 0, 24, 200, 3}, uint8(2), 120.0)
	f.Add([]byte{0, 0, 0}, uint8(1), 1.0)               // a zero vector, duplicates
	f.Add([]byte{1, 2, 40, 7, 90, 33}, uint8(0), 1e300) // ε near overflow
	f.Add([]byte{}, uint8(3), -1.0)
	f.Fuzz(func(t *testing.T, data []byte, dim uint8, eps float64) {
		d := int(dim%3) + 1
		if len(data) > 6*d {
			data = data[:6*d] // at most 6 words: the laws are cubic in N
		}
		var vs [][]float64
		for i := 0; i+d <= len(data); i += d {
			v := make([]float64, d)
			for j := range v {
				v[j] = float64(int8(data[i+j])) / 8
			}
			vs = append(vs, v)
		}
		for _, law := range []struct {
			name string
			f    func([][]float64, float64) ([][]float64, error)
		}{{"SynTF", SynTF}, {"SynTFNoHalf", SynTFNoHalf}, {"TruncGumbel", TruncGumbel}} {
			P, err := law.f(vs, eps)
			if err != nil {
				if !errors.Is(err, ErrInvalid) || P != nil {
					t.Fatalf("%s: (%v, %v): want ErrInvalid and no matrix", law.name, P, err)
				}
				continue
			}
			if len(P) != len(vs) {
				t.Fatalf("%s: %d rows for %d words", law.name, len(P), len(vs))
			}
			if err := rowsSumToOne(P, 1e-12); err != nil {
				t.Fatalf("%s on %v at ε=%v: %v", law.name, vs, eps, err)
			}
		}
	})
}
