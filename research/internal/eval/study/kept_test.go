package study

import (
	"math/rand/v2"
	"testing"
)

type mapSampler func(w int) int

func (m mapSampler) drawMany(ws []int, out []int, _ rand.Source) error {
	for i, w := range ws {
		out[i] = m(w)
	}
	return nil
}

// TestKeptShares: an identity mechanism keeps every in-vocabulary token,
// one that never returns its input keeps none (the negative control), and
// a real mechanism at a small ε keeps some; the token count excludes the
// out-of-vocabulary positions.
func TestKeptShares(t *testing.T) {
	env, train, _ := fixture(t)
	n := env.Asset.Len()
	spec := func(name string, m mapSampler) Spec {
		return Spec{Name: name, Family: "dp", Eps: []float64{1}, Matched: nans(1), build: func(*Env, float64) (sampler, error) { return m, nil }}
	}
	specs := []Spec{
		spec("identity", func(w int) int { return w }),
		spec("shift", func(w int) int { return (w + 1) % n }),
	}
	real, err := Specs(env, []string{"1dg-1"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	specs = append(specs, real...)
	ks, err := KeptShares(env, train, specs, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := len(train.Tokens) - len(train.OOV)
	for _, k := range ks {
		if k.Tokens != want {
			t.Errorf("%s: %d tokens, want %d in-vocabulary", k.Mechanism, k.Tokens, want)
		}
	}
	if ks[0].Share != 1 || ks[1].Share != 0 {
		t.Errorf("identity %v, shift %v: want 1 and 0", ks[0].Share, ks[1].Share)
	}
	lo, hi := ks[2].Share, ks[len(ks)-1].Share // 1-DG at its smallest and largest ε
	if !(lo < hi) || hi <= 0 || lo >= 1 {
		t.Errorf("1-DG kept %v at ε %v and %v at ε %v: want increasing, inside (0, 1)", lo, ks[2].Epsilon, hi, ks[len(ks)-1].Epsilon)
	}
}
