package mechanism

import (
	"errors"
	"fmt"
	"github.com/wordveil/wordveil/internal/keepwords"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

// custextFixture is an in-memory asset with CusText sets and the low bits
// of its codes.
type custextFixture struct {
	a   *wva.Asset
	low []uint64
}

// custextTestAsset: n synthetic 10-bit codes, word w in set w mod g (a
// valid partition when g divides n), words 0 and 7 named "the" and "of"
// (stop words), the others "w<id>". It returns the stop-word set too.
func custextTestAsset(t testing.TB, n, g int) (custextFixture, []bool) {
	t.Helper()
	low, codes := syntheticCodes(n, 10, "custext")
	words := make([]string, n)
	stop := make([]bool, n)
	for w := range words {
		words[w] = "w" + itoa(w)
	}
	words[0], words[7] = "the", "of"
	stop[0], stop[7] = true, true
	groups := make([][]uint32, g)
	for w := range n {
		groups[w%g] = append(groups[w%g], uint32(w))
	}
	sets, err := wva.NewCusTextSets(n, n/g, groups)
	if err != nil {
		t.Fatal(err)
	}
	return custextFixture{a: (&wva.Asset{Codes: codes, CusText: sets}).SetWords(words), low: low}, stop
}

func TestCusTextErrors(t *testing.T) {
	ct, _ := custextTestAsset(t, 20, 5)
	noSets := (&wva.Asset{Codes: ct.a.Codes}).SetWords(ct.a.WordList())
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"nil asset", func() error { _, err := NewCusText(nil, 1); return err }(), ErrEmptyVocabulary},
		{"no sets", func() error { _, err := NewCusText(noSets, 1); return err }(), ErrNoLists},
		{"no sets by name", func() error { _, err := New(NameCusText, noSets, 1, Options{}); return err }(), ErrNoLists},
		{"no sets, CusText+", func() error { _, err := newCusTextPlus(noSets, 1); return err }(), ErrNoLists},
		{"eps 0", func() error { _, err := newCusTextPlus(ct.a, 0); return err }(), ErrInvalidEpsilon},
		{"eps NaN", func() error { _, err := NewCusText(ct.a, math.NaN()); return err }(), ErrInvalidEpsilon},
		{"eps above MaxEpsilon", func() error { _, err := New(NameCusText, ct.a, 2e6, Options{AllowSaturated: true}); return err }(), ErrInvalidEpsilon},
		{"a set fully excluded", func() error {
			o, _ := testOutputs(t, 20, 1, 6, 11, 16) // set 1
			_, err := New(NameCusText, ct.a, 1, Options{Outputs: o})
			return err
		}(), ErrNoOutputs},
		{"outputs of another size", func() error {
			o, _ := testOutputs(t, 21)
			_, err := New(NameCusText, ct.a, 1, Options{Outputs: o})
			return err
		}(), ErrOutputsMismatch},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: err = %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	m, err := NewCusText(ct.a, 1)
	if err != nil {
		t.Fatal(err)
	}
	src := seeded.Key(stattest.Seed("custext-errors"))
	for _, w := range []int{-1, 20} {
		if y, err := m.Privatize(w, src); y != -1 || !errors.Is(err, ErrWordOutOfRange) {
			t.Errorf("Privatize(%d) = %d, %v", w, y, err)
		}
	}
	if y, err := m.Privatize(3, nil); y != -1 || !errors.Is(err, ErrNilSource) {
		t.Errorf("Privatize with nil source = %d, %v", y, err)
	}
}

// Every output is a word of the input's set (and of the output
// vocabulary); CusText+ returns an allowed stop word unchanged, always.
func TestCusTextOutputsStayInSet(t *testing.T) {
	ct, stop := custextTestAsset(t, 20, 5)
	o, _ := testOutputs(t, 20, 3, 7)
	src := seeded.Key(stattest.Seed("custext-in-set"))
	for _, name := range []string{NameCusText, keepwords.NameCusTextPlus} {
		for _, out := range []*Outputs{nil, o} {
			m, err := newWith(name, ct.a, 300, Options{Outputs: out, AllowSaturated: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for w := range 20 {
				for range 200 {
					y, err := m.Privatize(w, src)
					if err != nil {
						t.Fatal(err)
					}
					kept := name == keepwords.NameCusTextPlus && stop[w] && (out == nil || out.Allowed(w))
					switch {
					case y%5 != w%5:
						t.Fatalf("%s: word %d released %d from another set", name, w, y)
					case out != nil && !out.Allowed(y):
						t.Fatalf("%s: word %d released excluded %d", name, w, y)
					case kept && y != w:
						t.Fatalf("%s: stop word %d released as %d", name, w, y)
					}
				}
			}
		}
	}
}

func TestCusTextFacts(t *testing.T) {
	ct, _ := custextTestAsset(t, 20, 5)
	o, _ := testOutputs(t, 20, 3)
	for _, tc := range []struct {
		name   string
		out    *Outputs
		params string
	}{
		{NameCusText, nil, "epsilon=0.5 k=4"},
		{keepwords.NameCusTextPlus, nil, "epsilon=0.5 k=4 stopwords=" + keepwords.StopWordsSource},
		{NameCusText, o, "epsilon=0.5 k=4 outputs="},
	} {
		m, err := newWith(tc.name, ct.a, 0.5, Options{Outputs: tc.out}, nil)
		if err != nil {
			t.Fatal(err)
		}
		f := m.(Facts)
		if pavg, ok := f.MeanDistance(); ok || !math.IsNaN(pavg) {
			t.Errorf("%s: MeanDistance = %v, %v; want unknown", tc.name, pavg, ok)
		}
		if f.Name() != tc.name || !strings.HasPrefix(f.Params(), tc.params) || f.Outputs() != tc.out {
			t.Errorf("facts: %q %q %v", f.Name(), f.Params(), f.Outputs())
		}
		if m.Epsilon() != 0.5 || m.Len() != 20 || !strings.HasPrefix(m.Metric(), "custext-set") {
			t.Errorf("%s: ε %v N %d metric %q", tc.name, m.Epsilon(), m.Len(), m.Metric())
		}
	}
	if !keepwords.IsStopWord("the") || !keepwords.IsStopWord("couldn't") || keepwords.IsStopWord("The") || keepwords.IsStopWord("privacy") || !keepwords.IsStopWord("bill") {
		t.Error("stop words: wrong membership")
	}
}

// The saturation bound is sound: at SaturationEpsilon the exact law keeps
// every word with probability ≥ 1 − η, and well below it (ε/2) some word
// is not kept that often (so the bound is not vacuous). Equal codes in a
// set, or an input outside the outputs, make it +Inf.
func TestCusTextSaturationBound(t *testing.T) {
	ct, _ := custextTestAsset(t, 20, 5)
	m, err := NewCusText(ct.a, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := m.(Facts).SaturationEpsilon()
	if math.IsInf(s, 0) || s <= 0 {
		t.Fatalf("saturation ε = %v", s)
	}
	d := hammingMatrix(ct.low)
	groups := make([]int, 20)
	for w := range groups {
		groups[w] = w % 5
	}
	for _, c := range []struct {
		eps  float64
		kept bool
	}{{s, true}, {s / 2, false}} {
		P, err := dpexact.CusText(d, groups, c.eps, nil)
		if err != nil {
			t.Fatal(err)
		}
		minKeep := 1.0
		for w := range P {
			minKeep = min(minKeep, P[w][w])
		}
		if (minKeep >= 1-SaturationTolerance) != c.kept {
			t.Errorf("ε=%v (bound %v): min P(w|w) = %v", c.eps, s, minKeep)
		}
	}
	if _, err := New(NameCusText, ct.a, s*1.01, Options{}); !errors.Is(err, ErrEpsilonSaturated) {
		t.Errorf("ε above the bound: %v", err)
	}
	o, _ := testOutputs(t, 20, 2)
	r, err := Restrict(m, o)
	if err != nil {
		t.Fatal(err)
	}
	if s := r.(Facts).SaturationEpsilon(); !math.IsInf(s, 1) {
		t.Errorf("restricted without word 2: saturation ε %v, want +Inf", s)
	}
	eq := (&wva.Asset{Codes: []hamming.Code{{1}, {1}}, CusText: ct.a.CusText}).SetWords([]string{"a", "b"})
	eq.CusText, _ = wva.NewCusTextSets(2, 2, [][]uint32{{0, 1}})
	if m, err := NewCusText(eq, 1); err != nil || !math.IsInf(m.(Facts).SaturationEpsilon(), 1) {
		t.Errorf("equal codes in a set: %v", err)
	}
}

// Privatize does not allocate.
func TestCusTextPrivatizeAllocs(t *testing.T) {
	ct, _ := custextTestAsset(t, 20, 5)
	m, err := newCusTextPlus(ct.a, 3)
	if err != nil {
		t.Fatal(err)
	}
	src := seeded.Key(stattest.Seed("custext-allocs"))
	if n := testing.AllocsPerRun(200, func() { _, _ = m.Privatize(9, src) }); n != 0 {
		t.Errorf("%v allocations per call", n)
	}
}

// CusText is built by name and listed; CusText+, which keeps stop words,
// is neither (New refuses it; TestNewOffersNoKeepingMechanism).
func TestCusTextByName(t *testing.T) {
	ct, _ := custextTestAsset(t, 20, 5)
	if m, err := New(NameCusText, ct.a, 1, Options{}); err != nil || m.(Facts).Name() != NameCusText {
		t.Fatalf("New(%q): %v", NameCusText, err)
	}
	if _, err := New(keepwords.NameCusTextPlus, ct.a, 1, Options{}); !errors.Is(err, ErrUnknownMechanism) {
		t.Errorf("New(%q): %v, want ErrUnknownMechanism", keepwords.NameCusTextPlus, err)
	}
	if !slices.Contains(Names(), NameCusText) || slices.Contains(Names(), keepwords.NameCusTextPlus) {
		t.Errorf("Names() = %v: want custext listed, custext+ not", Names())
	}
}

func BenchmarkCusTextPrivatize(b *testing.B) {
	const n, k = 50000, 20
	codes := make([]hamming.Code, n)
	words := make([]string, n)
	groups := make([][]uint32, n/k)
	for w := range n {
		codes[w] = hamming.Code{uint64(w) * 0x9E3779B97F4A7C15, uint64(w) ^ 0xdeadbeef}
		words[w] = "w" + itoa(w)
		groups[w%(n/k)] = append(groups[w%(n/k)], uint32(w))
	}
	sets, err := wva.NewCusTextSets(n, k, groups)
	if err != nil {
		b.Fatal(err)
	}
	m, err := NewCusText((&wva.Asset{Codes: codes, CusText: sets}).SetWords(words), 100)
	if err != nil {
		b.Fatal(err)
	}
	benchPrivatize(b, m, seeded.Key(stattest.Seed("bench")))
}

// Negative control for the chi-square cases of audit_test.go: the
// sampler's frequencies are told apart from the law without the factor
// 1/2, so a sampler drawing the wrong law would be caught.
func TestCusTextChiSquareCatchesWrongLaw(t *testing.T) {
	ct, _ := custextTestAsset(t, 20, 5)
	groups := make([]int, 20)
	for w := range groups {
		groups[w] = w % 5
	}
	const eps = 150
	m, err := NewCusText(ct.a, eps)
	if err != nil {
		t.Fatal(err)
	}
	wrong, err := dpexact.CusTextNoHalf(hammingMatrix(ct.low), groups, eps)
	if err != nil {
		t.Fatal(err)
	}
	src := seeded.Key(stattest.Seed("custext-wrong-law"))
	caught := 0
	for _, w := range []int{0, 1, 10, 19} {
		counts, err := stattest.SampleCounts(m, w, 40000, src)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, p := stattest.ChiSquare(counts, wrong[w]); p < 1e-4 {
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("no input's frequencies were told apart from the wrong law")
	}
}

// TestCusTextDistancesOnce: Privatize, which computes the distances of a
// set's first 64 members once and any others in each scan, draws exactly
// what the plain three scans (every distance computed in each) draw from
// the same stream, on sets of 20 members and of 200 (past the 64 kept),
// at a small, a middle and a large ε.
func TestCusTextDistancesOnce(t *testing.T) {
	for _, g := range []int{10, 1} { // 200 words: sets of 20, then one of 200
		ct, _ := custextTestAsset(t, 200, g)
		for _, eps := range []float64{0.01, 50, 5000} {
			m, err := newCusText(ct.a, eps, false, nil)
			if err != nil {
				t.Fatal(err)
			}
			for w := range 200 {
				label := fmt.Sprintf("custext-once/%d/%v/%d", g, eps, w)
				a, b := seeded.Key(stattest.Seed(label)), seeded.Key(stattest.Seed(label))
				for range 5 {
					got, err := m.Privatize(w, a)
					if err != nil {
						t.Fatal(err)
					}
					if want := custextPlain(m, w, b); got != want {
						t.Fatalf("sets of %d, ε=%v, word %d: %d, the plain scans %d", 200/g, eps, w, got, want)
					}
				}
			}
		}
	}
}

// custextPlain is Privatize with every member's distance computed in each
// of its scans.
func custextPlain(m *custextMech, w int, src rand.Source) int {
	set := m.members(w)
	near := hamming.Bits
	for _, y := range set {
		near = min(near, hamming.Distance(m.codes[w], m.codes[y]))
	}
	z := 0.0
	for _, y := range set {
		z += m.weight[hamming.Distance(m.codes[w], m.codes[y])-near]
	}
	u := sample.UniformOpen(src) * z
	c := 0.0
	for _, y := range set {
		c += m.weight[hamming.Distance(m.codes[w], m.codes[y])-near]
		if u < c {
			return int(y)
		}
	}
	for i := len(set) - 1; i >= 0; i-- {
		if m.weight[hamming.Distance(m.codes[w], m.codes[set[i]])-near] > 0 {
			return int(set[i])
		}
	}
	return -1
}
