package mechanism

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

func TestNewOutputs(t *testing.T) {
	for _, c := range []struct {
		name     string
		n        int
		excluded []int
		want     error
		allowed  int
	}{
		{"none excluded", 5, nil, nil, 5},
		{"duplicates", 5, []int{1, 1, 4}, nil, 3},
		{"all but one", 3, []int{0, 2}, nil, 1},
		{"all excluded", 2, []int{0, 1}, ErrNoOutputs, 0},
		{"empty vocabulary", 0, nil, ErrEmptyVocabulary, 0},
		{"negative id", 3, []int{-1}, ErrWordOutOfRange, 0},
		{"id past the end", 3, []int{3}, ErrWordOutOfRange, 0},
	} {
		o, err := NewOutputs(c.n, c.excluded)
		if !errors.Is(err, c.want) || (err == nil && (o.Len() != c.allowed || o.Vocabulary() != c.n)) {
			t.Errorf("%s: %v, %v", c.name, o, err)
		}
	}
	// nil and the zero Outputs allow nothing and never panic.
	var nilO *Outputs
	var zero Outputs
	src := seeded.Key(stattest.Seed("outputs"))
	if nilO.Len() != 0 || nilO.Vocabulary() != 0 || nilO.Allowed(0) || nilO.Uniform(src) != -1 || nilO.IDs() != nil ||
		zero.Len() != 0 || zero.Allowed(0) || zero.Uniform(src) != -1 {
		t.Error("nil or zero Outputs misbehave")
	}
	o, _ := NewOutputs(4, []int{1, 2})
	if o.Uniform(nil) != -1 || o.rank(0) != 0 || o.rank(3) != 1 || o.rank(4) != 2 {
		t.Error("Uniform(nil) or rank wrong")
	}
}

// Restrict keeps the parameters, sets Outputs, changes Params only by an
// " outputs=<fingerprint>" suffix, and refuses what it cannot honour.
func TestRestrict(t *testing.T) {
	a := defaultAsset(t)
	n := a.Len()
	o1, _ := NewOutputs(n, []int{0, 5, 7})
	o2, _ := NewOutputs(n, []int{0, 5, 8})
	// Params of unrestricted mechanisms, byte for byte as before output
	// vocabularies existed (the memo keys on them).
	want := map[string]string{
		NameBRR:        "epsilon=0.5",
		NameTEMHamming: "epsilon=0.5 gamma=",
		NameTEM:        "epsilon=10 gamma=",
		Name1DG:        "epsilon=0.5 lists=",
		Name1DT:        "epsilon=0.5 gamma=",
	}
	for _, name := range Names() {
		eps := 0.5
		if name == NameTEM {
			eps = 10 // Theorem 4.2's γ within the stored balls
		}
		m, err := New(name, a, eps, Options{AllowSaturated: true})
		if err != nil {
			t.Fatal(err)
		}
		f := m.(Facts)
		if f.Outputs() != nil || !strings.HasPrefix(f.Params(), want[name]) || strings.Contains(f.Params(), "outputs") {
			t.Errorf("%s unrestricted: outputs %v, params %q", name, f.Outputs(), f.Params())
		}
		r1, err := Restrict(m, o1)
		if err != nil {
			t.Fatal(err)
		}
		viaNew, err := New(name, a, eps, Options{AllowSaturated: true, Outputs: o1})
		if err != nil {
			t.Fatal(err)
		}
		r2, _ := Restrict(m, o2)
		lifted, _ := Restrict(r1, nil)
		p1, p2 := r1.(Facts).Params(), r2.(Facts).Params()
		if r1.(Facts).Outputs() != o1 || viaNew.(Facts).Params() != p1 || p1 != f.Params()+" outputs="+o1.fp ||
			len(o1.fp) != 16 || p1 == p2 || lifted.(Facts).Params() != f.Params() || lifted.(Facts).Outputs() != nil {
			t.Errorf("%s: params %q / %q / %q, lifted %q", name, f.Params(), p1, p2, lifted.(Facts).Params())
		}
		if r1.Epsilon() != m.Epsilon() || r1.Metric() != m.Metric() || r1.Len() != m.Len() || m.(Facts).Outputs() != nil {
			t.Errorf("%s: Restrict changed the parameters or the original", name)
		}
		small, _ := NewOutputs(n-1, nil)
		if _, err := Restrict(m, small); !errors.Is(err, ErrOutputsMismatch) {
			t.Errorf("%s: outputs of another size: %v", name, err)
		}
		if _, err := New(name, a, eps, Options{AllowSaturated: true, Outputs: small}); !errors.Is(err, ErrOutputsMismatch) {
			t.Errorf("%s: New with outputs of another size: %v", name, err)
		}
	}
	if _, err := Restrict(nil, o1); !errors.Is(err, ErrUnknownMechanism) {
		t.Errorf("nil mechanism: %v", err)
	}
	if _, err := Restrict(foreign{}, nil); !errors.Is(err, ErrUnknownMechanism) {
		t.Errorf("foreign mechanism: %v", err)
	}
	// The fingerprint is of the excluded set: equal sets, equal prints.
	o3, _ := NewOutputs(n, []int{7, 5, 0, 5})
	if o3.fp != o1.fp {
		t.Errorf("fingerprints differ for the same set: %s %s", o3.fp, o1.fp)
	}
}

type foreign struct{}

func (foreign) Privatize(int, rand.Source) (int, error) { return 0, nil }
func (foreign) Epsilon() float64                        { return 1 }
func (foreign) Metric() string                          { return "none" }
func (foreign) Len() int                                { return 1 }

// countingSource counts the 64-bit draws a mechanism takes, and stops it
// (by panicking) past a budget: work is counted, never timed.
type countingSource struct {
	src    rand.Source
	n, max int
}

type overBudget struct{}

func (c *countingSource) Uint64() uint64 {
	c.n++
	if c.n > c.max {
		panic(overBudget{})
	}
	return c.src.Uint64()
}

// draws runs m on w once and returns the draws it took, or max+1 if it
// exceeded the budget.
func draws(t *testing.T, m Mechanism, w int, c *countingSource) (n int) {
	t.Helper()
	c.n = 0
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(overBudget); !ok {
				panic(r)
			}
			n = c.max + 1
		}
	}()
	if _, err := m.Privatize(w, c); err != nil {
		t.Fatal(err)
	}
	return c.n
}

// An excluded input at a large ε, its neighbours excluded too: every
// restricted mechanism (the TEM family especially, whose naive re-draw
// would need about e^(ε·d/2) tries) answers within a fixed number of
// random draws. The negative control is that naive re-draw, which runs
// out of the same budget.
func TestExcludedInputBoundedWork(t *testing.T) {
	const budget = 2000
	_, codes := syntheticCodes(20, 10, "temh")
	x := newIndex(t, codes)
	s := assetSubset(t)
	lp, lpos := syntheticList(t, 30, "list")
	order := make([]int, 30)
	for w, p := range lpos {
		order[p] = w
	}
	w0 := order[15] // the list input: positions 12..18 excluded
	listEx := []int{order[12], order[13], order[14], order[15], order[16], order[17], order[18]}
	mk := func(m Mechanism, err error) Mechanism {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, c := range []struct {
		name     string
		m        Mechanism
		w        int
		excluded []int
	}{
		{"BRR ε=30", mk(NewBRR(x, 30)), 0, []int{0, 1, 2, 3, 4, 5}},
		{"TEM-Hamming ε=60 γ=10", mk(NewTEMHamming(x, 60, TEMOptions{Gamma: 10})), 0, []int{0, 1, 2, 3, 4, 5}},
		{"TEM ε=300 γ=γ_max", mk(NewTEM(s.tem, 300, TEMOptions{Gamma: s.gammaMax})), 0, []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{"1-DG ε=40", mk(NewDiffractorGeometric([]wva.Permutation{lp}, 40)), w0, listEx},
		{"1-DT ε=40 γ=5", mk(NewDiffractorTEM([]wva.Permutation{lp}, 40, TEMOptions{Gamma: 5})), w0, listEx},
	} {
		o, _ := testOutputs(t, c.m.Len(), c.excluded...)
		r, err := Restrict(c.m, o)
		if err != nil {
			t.Fatal(err)
		}
		src := &countingSource{src: seeded.Key(stattest.Seed("work/" + c.name)), max: budget}
		most := 0
		for range 200 {
			most = max(most, draws(t, r, c.w, src))
		}
		if most > budget {
			t.Errorf("%s: over %d draws for one word", c.name, budget)
		}
		// Negative control: re-draw the unrestricted mechanism until the
		// output is allowed.
		redraw := redrawMech{c.m, o}
		naive := draws(t, redraw, c.w, src)
		t.Logf("%s: at most %d draws per word restricted; naive re-draw: %d", c.name, most, naive)
		if naive <= budget {
			t.Errorf("%s: the naive re-draw stayed within budget (%d draws): the excluded neighbourhood does not test anything", c.name, naive)
		}
	}
}

// redrawMech re-draws m until its output is allowed (the naive restriction).
type redrawMech struct {
	Mechanism
	o *Outputs
}

func (r redrawMech) Privatize(w int, src rand.Source) (int, error) {
	for {
		y, err := r.Mechanism.Privatize(w, src)
		if err != nil || r.o.Allowed(y) {
			return y, err
		}
	}
}

// TestOutputsMask: Mask is Allowed for every id, and nil for nil Outputs
// (no restriction), never a panic.
func TestOutputsMask(t *testing.T) {
	var none *Outputs
	if m := none.Mask(5); m != nil {
		t.Errorf("nil Outputs: Mask = %v, want nil", m)
	}
	o, err := NewOutputs(6, []int{1, 4})
	if err != nil {
		t.Fatal(err)
	}
	m := o.Mask(6)
	if len(m) != 6 {
		t.Fatalf("len(Mask(6)) = %d", len(m))
	}
	for w, ok := range m {
		if ok != o.Allowed(w) || ok == (w == 1 || w == 4) {
			t.Errorf("Mask[%d] = %v, Allowed %v", w, ok, o.Allowed(w))
		}
	}
}
