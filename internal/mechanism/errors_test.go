package mechanism

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

// constructors builds every mechanism with a given ε and TEM options on
// small fixtures.
func constructors(t *testing.T) map[string]func(eps float64, o TEMOptions) (Mechanism, error) {
	_, codes := syntheticCodes(16, 10, "err")
	x := newIndex(t, codes)
	s := assetSubset(t)
	return map[string]func(float64, TEMOptions) (Mechanism, error){
		"BRR": func(e float64, _ TEMOptions) (Mechanism, error) { return wrap(newBRR(x, e)) },
		"TEM": func(e float64, o TEMOptions) (Mechanism, error) { return wrap(newTEM(s.tem, e, o)) },
		"TEMHamming": func(e float64, o TEMOptions) (Mechanism, error) {
			return wrap(newTEMHamming(x, e, o))
		},
		"1-DG": func(e float64, _ TEMOptions) (Mechanism, error) { return wrap(newDG(s.lists, e)) },
		"1-DT": func(e float64, o TEMOptions) (Mechanism, error) { return wrap(newDT(s.lists, e, o)) },
	}
}

// wrap turns a typed constructor result into (Mechanism, error) without
// producing a non-nil interface holding a nil pointer.
func wrap[M Mechanism](m M, err error) (Mechanism, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}

func TestInvalidEpsilon(t *testing.T) {
	for name, mk := range constructors(t) {
		for _, eps := range []float64{0, -1, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1)} {
			m, err := mk(eps, TEMOptions{Gamma: 1})
			if !errors.Is(err, ErrInvalidEpsilon) || m != nil {
				t.Errorf("%s ε=%v: got (%v, %v), want ErrInvalidEpsilon", name, eps, m, err)
			}
		}
	}
}

func TestInvalidGammaAndBeta(t *testing.T) {
	for _, name := range []string{"TEM", "TEMHamming", "1-DT"} {
		mk := constructors(t)[name]
		for _, o := range []TEMOptions{{Gamma: -1}, {Gamma: math.NaN()}, {Gamma: math.Inf(1)}} {
			if _, err := mk(10, o); !errors.Is(err, ErrInvalidTEMOptions) {
				t.Errorf("%s %+v: got %v, want ErrInvalidTEMOptions", name, o, err)
			}
		}
		for _, o := range []TEMOptions{{Beta: -0.1}, {Beta: 1}, {Beta: math.NaN()}} {
			if _, err := mk(10, o); !errors.Is(err, ErrInvalidTEMOptions) {
				t.Errorf("%s %+v: got %v, want ErrInvalidTEMOptions", name, o, err)
			}
		}
	}
}

// γ above the lists' γ_max must fail (a smaller stored ball is not the
// γ-ball), whether γ is given or comes from Theorem 4.2 at a small ε.
func TestGammaAboveGammaMax(t *testing.T) {
	a := defaultAsset(t)
	for _, c := range []struct {
		eps float64
		o   TEMOptions
	}{
		{1, TEMOptions{}},   // Theorem 4.2: γ ≈ 35.5
		{9.2, TEMOptions{}}, // γ ≈ 3.85, just above the asset's γ_max 3.81
		{2, TEMOptions{Gamma: a.TEM.GammaMax() + 1e-9}}, // given, a hair above
	} {
		m, err := newTEM(a.TEM, c.eps, c.o)
		if !errors.Is(err, wva.ErrGammaMax) || m != nil {
			t.Errorf("ε=%v %+v: got (%v, %v), want wva.ErrGammaMax", c.eps, c.o, m, err)
		}
	}
	// At the boundary it works.
	if _, err := newTEM(a.TEM, 1, TEMOptions{Gamma: a.TEM.GammaMax()}); err != nil {
		t.Errorf("γ = γ_max: %v", err)
	}
	if _, err := newTEM(a.TEM, 10, TEMOptions{}); err != nil {
		t.Errorf("ε=10 (γ≈3.55): %v", err)
	}
}

// Out-of-range words and a nil source fail with -1, never the input.
func TestPrivatizeErrors(t *testing.T) {
	src := seeded.Key(stattest.Seed("err"))
	for name, mk := range constructors(t) {
		m, err := mk(1, TEMOptions{Gamma: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, w := range []int{-1, m.Len(), m.Len() + 1000, math.MinInt} {
			y, err := m.Privatize(w, src)
			if !errors.Is(err, ErrWordOutOfRange) || y != -1 {
				t.Errorf("%s w=%d: got (%d, %v), want (-1, ErrWordOutOfRange)", name, w, y, err)
			}
		}
		if y, err := m.Privatize(0, nil); !errors.Is(err, ErrNilSource) || y != -1 {
			t.Errorf("%s nil source: got (%d, %v), want (-1, ErrNilSource)", name, y, err)
		}
	}
}

func TestBadLists(t *testing.T) {
	p3, _ := syntheticList(t, 3, "a")
	p4, _ := syntheticList(t, 4, "b")
	broken := wva.Permutation{Order: []uint32{0, 1, 1}, Pos: []uint32{0, 1, 2}}
	for _, c := range []struct {
		name  string
		lists []wva.Permutation
		want  error
	}{
		{"none", nil, ErrNoLists},
		{"empty", []wva.Permutation{{}}, ErrEmptyVocabulary},
		{"mismatch", []wva.Permutation{p3, p4}, ErrListMismatch},
		{"not a permutation", []wva.Permutation{broken}, wva.ErrInvalid},
	} {
		if _, err := newDG(c.lists, 1); !errors.Is(err, c.want) {
			t.Errorf("1-DG %s: got %v, want %v", c.name, err, c.want)
		}
		if _, err := newDT(c.lists, 1, TEMOptions{}); !errors.Is(err, c.want) {
			t.Errorf("1-DT %s: got %v, want %v", c.name, err, c.want)
		}
	}
}

func TestEmptyVocabulary(t *testing.T) {
	x := newIndex(t, nil)
	if _, err := newBRR(x, 1); !errors.Is(err, ErrEmptyVocabulary) {
		t.Errorf("BRR: %v", err)
	}
	if _, err := newTEMHamming(x, 1, TEMOptions{}); !errors.Is(err, ErrEmptyVocabulary) {
		t.Errorf("TEMHamming: %v", err)
	}
	if _, err := newTEM(nil, 1, TEMOptions{}); !errors.Is(err, ErrEmptyVocabulary) {
		t.Errorf("TEM: %v", err)
	}
}

func TestTheoremGamma(t *testing.T) {
	for _, c := range []struct {
		eps, beta float64
		n         int
		want      float64
	}{
		{1, 0.001, 50000, 2 * math.Log(0.999*49999/0.001)},
		{10, 0.001, 50000, 0.2 * math.Log(0.999*49999/0.001)},
		{2, 0.5, 2, 0}, // ln(0.5·1/0.5) = 0
		{1, 0.001, 1, 0},
	} {
		got, err := TheoremGamma(c.eps, c.beta, c.n)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("TheoremGamma(%v, %v, %d) = %v, %v; want %v", c.eps, c.beta, c.n, got, err, c.want)
		}
	}
}

// TestErrorPrefixesOnce: every error message names each part of its
// context once ("1-DG: epsilon must be ...", never "mechanism: 1-DG: mechanism: ...").
func TestErrorPrefixesOnce(t *testing.T) {
	a := defaultAsset(t)
	var errs []error
	for _, mk := range constructors(t) {
		_, err := mk(-1, TEMOptions{})
		errs = append(errs, err)
		if _, err = mk(1, TEMOptions{Gamma: -1}); err != nil { // the TEM variants
			errs = append(errs, err)
		}
	}
	for _, name := range Names() {
		_, err := New(name, a, math.NaN(), Options{})
		errs = append(errs, err)
		_, err = New(name, a, 1e5, Options{})
		errs = append(errs, err)
	}
	_, err := New("nope", a, 1, Options{})
	errs = append(errs, err)
	dg, _ := newDG(a.Lists, 0.5)
	_, err = dg.Privatize(-1, NewSecureSource())
	errs = append(errs, err)
	for _, err := range errs {
		if err == nil {
			t.Fatal("expected an error")
		}
		if dup := repeatedPrefix(err.Error()); dup != "" {
			t.Errorf("%q repeats %q", err, dup)
		}
	}
	if repeatedPrefix("mechanism: BRR: mechanism: epsilon must be finite") == "" {
		t.Fatal("negative control: the check misses a repeated prefix")
	}
}

// repeatedPrefix returns a "word:" context segment that occurs twice in
// msg, or "".
func repeatedPrefix(msg string) string {
	seen := map[string]bool{}
	for _, part := range strings.Split(msg, ": ") {
		if strings.ContainsAny(part, " ()") || part == "" {
			continue // prose, not a context label
		}
		if seen[part] {
			return part
		}
		seen[part] = true
	}
	return ""
}
