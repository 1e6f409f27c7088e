package privatize

import (
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// syntheticWords is a small vocabulary with what the default asset lacks
// today and the next one will hold: the clitic pieces GloVe's tokenizer
// makes ("n't", "'s", "ca", "wo", ...), single letters and numbers.
var syntheticWords = []string{
	"the", "a", "i", "you", "he", "it", "we", "they", "do", "did", "is", "was",
	"be", "have", "will", "never", "not", "know", "sure", "cat", "cats", "dog",
	"john", "ca", "wo", "sha", "n't", "'s", "'m", "'re", "'ll", "'ve", "'d",
	"s", "5", "1990", "3.5", "1,000", "10", "100", "o'clock", "well-known",
}

// syntheticAsset builds an asset over syntheticWords with random codes and
// two random 1-Diffractor lists (a fixed seed: the same asset every run).
func syntheticAsset(tb testing.TB) *wva.Asset {
	tb.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	n := len(syntheticWords)
	a := (&wva.Asset{Codes: make([]hamming.Code, n)}).SetWords(syntheticWords)
	for i := range a.Codes {
		for j := range a.Codes[i] {
			a.Codes[i][j] = r.Uint64()
		}
	}
	for range 2 {
		order := make([]uint32, n)
		for i, j := range r.Perm(n) {
			order[i] = uint32(j)
		}
		l, err := wva.NewPermutation(order)
		if err != nil {
			tb.Fatal(err)
		}
		a.Lists = append(a.Lists, l)
	}
	// Stand-ins: words the asset knows without a code, each privatized as
	// a vocabulary word.
	var words []string
	var ids []int32
	for _, st := range syntheticStandIns {
		id, ok := a.Lookup(st[1])
		if !ok {
			tb.Fatalf("stand-in target %q is not a synthetic word", st[1])
		}
		words, ids = append(words, st[0]), append(ids, int32(id))
	}
	st, err := wva.NewStandIns(n, words, ids)
	if err != nil {
		tb.Fatal(err)
	}
	a.StandIns = st
	return a
}

// syntheticStandIns maps each stand-in of the synthetic asset to its word.
var syntheticStandIns = [][2]string{
	{"heisenberg", "john"}, {"kitten", "cat"}, {"kittens", "cats"},
	{"y'know", "know"}, {"doggo", "dog"}, {"nope", "never"},
}

// syntheticMechanisms builds the mechanisms that need no precomputed TEM
// balls over a, at an ε where they do change words.
func syntheticMechanisms(tb testing.TB, a *wva.Asset) []namedMech {
	tb.Helper()
	x := newIndex(tb, a.Codes)
	var out []namedMech
	add := func(name string, m mechanism.Mechanism, err error) {
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		out = append(out, namedMech{name, m})
	}
	brr, err := mechanism.NewBRR(x, 0.05)
	add("synthetic/BRR", brr, err)
	dg, err := mechanism.NewDiffractorGeometric(a.Lists, 0.3)
	add("synthetic/1-DG", dg, err)
	dt, err := mechanism.NewDiffractorTEM(a.Lists, 0.3, mechanism.TEMOptions{})
	add("synthetic/1-DT", dt, err)
	th, err := mechanism.NewTEMHamming(x, 0.2, mechanism.TEMOptions{})
	add("synthetic/TEM-hamming", th, err)
	return out
}

// restrict returns m restricted to the listed words of a by package
// mechanism (mechanism.Restrict): its outputs, and the OOV policy's random
// words, are then those words only.
func restrict(tb testing.TB, m mechanism.Mechanism, a *wva.Asset, allowed ...string) mechanism.Mechanism {
	tb.Helper()
	keep := map[string]bool{}
	for _, w := range allowed {
		if _, ok := a.Lookup(w); !ok {
			tb.Fatalf("%q is not in the asset", w)
		}
		keep[w] = true
	}
	var excluded []int
	for id, w := range a.WordList() {
		if !keep[w] {
			excluded = append(excluded, id)
		}
	}
	o, err := mechanism.NewOutputs(a.Len(), excluded)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := mechanism.Restrict(m, o)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// foreignOutputs is a mechanism from outside package mechanism that
// reports an output vocabulary of its own choosing, which package
// mechanism never builds with a wrong size: the privatizer must still
// refuse one that does not cover the asset.
type foreignOutputs struct {
	mechanism.Mechanism
	out *mechanism.Outputs
}

func (m foreignOutputs) facts() mechanism.Facts        { return m.Mechanism.(mechanism.Facts) }
func (m foreignOutputs) MeanDistance() (float64, bool) { return m.facts().MeanDistance() }
func (m foreignOutputs) SaturationEpsilon() float64    { return m.facts().SaturationEpsilon() }
func (m foreignOutputs) EpsilonFloor() float64         { return m.facts().EpsilonFloor() }
func (m foreignOutputs) Name() string                  { return "foreign-" + m.facts().Name() }
func (m foreignOutputs) Outputs() *mechanism.Outputs   { return m.out }
func (m foreignOutputs) Params() string                { return m.facts().Params() + " foreign" }

var _ mechanism.Facts = foreignOutputs{}
