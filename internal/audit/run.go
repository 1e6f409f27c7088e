package audit

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// DefaultWords is Run's default number of asset words.
const DefaultWords = 48

// MaxWords bounds Options.Words: the check is cubic in the vocabulary.
const MaxWords = 400

// minDense is the smallest dense asset neighbourhood audited (the ⊥-score
// control needs words whose balls differ in size).
const minDense = 36

// Options configure Run.
type Options struct {
	// Words is K, the number of asset words audited (ids 0..K−1, the most
	// frequent); zero means DefaultWords. At least 2, at most MaxWords.
	Words int
}

// Result is one audited (mechanism, ε, vocabulary) case.
type Result struct {
	// Mechanism names the mechanism and its parameters, e.g.
	// "TEM γ=3" or "control: input exclusion (BRR)".
	Mechanism string `json:"mechanism"`
	// Control marks a negative control: a mechanism that must FAIL.
	Control bool `json:"control"`
	// Eps is ε: the case's distribution is computed for it and checked
	// against ε·d.
	Eps float64 `json:"eps"`
	// Vocabulary describes the audited word set and metric, e.g.
	// "synthetic 20 codes × 10 bits" or "asset first 48: list 0".
	Vocabulary string `json:"vocabulary"`
	// N is the number of words in the vocabulary (rows of the audited
	// distribution).
	N int `json:"n"`
	// Report is the worst breach found in the case's distribution.
	Report Report `json:"report"`
	// OK: a real mechanism passed, or a control was caught.
	OK bool `json:"ok"`
	// Status is "PASS"/"FAIL" for a real mechanism, "expected violation:
	// caught"/"expected violation: NOT CAUGHT" for a control.
	Status string `json:"status"`
}

// Table is Run's result.
type Table struct {
	// Words is K, the number of asset words audited: Options.Words (or
	// DefaultWords), lowered to the asset's word count if that is smaller.
	Words int `json:"words"`
	// Results holds one entry per audited case, negative controls last.
	Results []Result `json:"results"`
	// Skipped lists parts not audited because the asset lacks them.
	Skipped []string `json:"skipped,omitempty"`

	cases []Case // the case table, one per result (see Cases)
	err   error  // the first error computing a law (see add)
}

// OK reports whether every real mechanism passed and every control was
// caught.
func (t Table) OK() bool {
	for _, r := range t.Results {
		if !r.OK {
			return false
		}
	}
	return len(t.Results) > 0
}

// Failures returns the results that are not OK.
func (t Table) Failures() []Result {
	var f []Result
	for _, r := range t.Results {
		if !r.OK {
			f = append(f, r)
		}
	}
	return f
}

// add appends a law-only case (no sampler: a control, an expected
// violation, a float-vector law) and its verdict; addMech appends the
// case of mechanism m, whose exact law is P. lawErr is the error
// computing P returned: the first one is kept for Run to return, and
// nothing is recorded for that case.
func (t *Table) add(name string, control bool, eps float64, vocab string, P [][]float64, lawErr error, d [][]float64) {
	t.addCase(Case{Name: name, Control: control, Eps: eps, Vocabulary: vocab, P: P, D: d}, lawErr)
}

func (t *Table) addMech(m mechanism.Mechanism, name string, eps float64, vocab string, P [][]float64, lawErr error, d [][]float64) {
	t.addCase(Case{Name: name, Eps: eps, Vocabulary: vocab, Mech: m, P: P, D: d}, lawErr)
}

func (t *Table) addCase(c Case, lawErr error) {
	if lawErr != nil {
		if t.err == nil {
			t.err = fmt.Errorf("audit: %s on %s: %w", c.Name, c.Vocabulary, lawErr)
		}
		return
	}
	t.cases = append(t.cases, c)
	t.Results = append(t.Results, c.Audit())
}

// Run audits every on-device mechanism, at several ε and γ, on
//
//   - the first K = opts.Words words of asset a, restricted to
//     themselves: TEM on the stored Euclidean balls, TEMHamming on the
//     256-bit codes, 1-DG and 1-DT on the first stored list and on all of
//     them (each list restricted to the K words, in its order);
//   - a dense neighbourhood of max(K, 36) asset words (the nearest words
//     of "good" plus words spread over the ids, as in mechanism's tests): TEM
//     on the stored Euclidean balls, whose sizes vary there;
//   - synthetic sets: BRR and TEMHamming on short seeded codes (a tight
//     cluster plus random codes), 1-DG and 1-DT on a seeded random list,
//     SynTF and the truncated Gumbel mechanism's claim on seeded float
//     vectors;
//
// and the negative controls, which must be caught. Parts the asset lacks
// (TEM balls, lists) are listed in Table.Skipped. a may be nil: only the
// synthetic sets are audited then. The cases are those of Cases(a, opts).
func Run(a *wva.Asset, opts Options) (Table, error) {
	t, err := run(a, opts)
	if err != nil {
		return Table{}, err
	}
	t.cases = nil
	return t, nil
}

// run builds the case table and audits it.
func run(a *wva.Asset, opts Options) (Table, error) {
	k := opts.Words
	if k == 0 {
		k = DefaultWords
	}
	if k < 2 || k > MaxWords {
		return Table{}, fmt.Errorf("audit: words = %d outside [2, %d]", k, MaxWords)
	}
	t := Table{Words: k}
	var s, dense *subset
	if a != nil {
		k = min(k, a.Len())
		t.Words = k
		var err error
		ids := make([]int, k)
		for i := range ids {
			ids[i] = i
		}
		if s, err = restrict(a, ids); err != nil {
			return Table{}, err
		}
		if a.TEM != nil {
			if dense, err = restrict(a, neighbourhood(a, min(max(k, minDense), a.Len()))); err != nil {
				return Table{}, err
			}
		}
	}
	vocabA := "asset first " + strconv.Itoa(k)

	// BRR on short synthetic codes.
	for _, c := range []struct {
		n, L int
		eps  float64
	}{{16, 10, 0.3}, {16, 10, 1.0}, {24, 12, 0.6}} {
		low, codes := syntheticCodes(c.n, c.L, "brr")
		m, err := mechanism.NewBRR(mustIndex(codes), c.eps)
		if err != nil {
			return Table{}, err
		}
		vocab := fmt.Sprintf("synthetic %d codes × %d bits", c.n, c.L)
		P, err := dpexact.BRR(low, c.L, m.Epsilon())
		t.addMech(m, "BRR", c.eps, vocab, P, err, hammingDistances(codes))
		r, allowed, err := restrictEveryThird(m, nil)
		if err != nil {
			return Table{}, err
		}
		P, err = dpexact.RestrictedBRR(low, c.L, r.Epsilon(), allowed)
		t.addMech(r, "BRR, nearest allowed", c.eps, vocab+excludedNote, P, err, hammingDistances(codes))
	}

	// TEMHamming on synthetic short codes and on the asset's codes.
	type temCase struct{ eps, gamma float64 }
	temHamming := func(codes []hamming.Code, vocab string, cases []temCase) error {
		d := hammingDistances(codes)
		x := mustIndex(codes)
		for _, c := range cases {
			m, err := mechanism.NewTEMHamming(x, c.eps, mechanism.TEMOptions{Gamma: c.gamma})
			if err != nil {
				return err
			}
			g := gammaFor(c.eps, c.gamma, len(codes))
			P, err := dpexact.TEM(d, g, c.eps)
			t.addMech(m, "TEMHamming "+gammaName(g, c.gamma), c.eps, vocab, P, err, d)
			r, allowed, err := restrictEveryThird(m, nil)
			if err != nil {
				return err
			}
			P, err = dpexact.RestrictedTEM(d, g, r.Epsilon(), allowed)
			t.addMech(r, "TEMHamming over A "+gammaName(g, c.gamma), c.eps, vocab+excludedNote, P, err, d)
		}
		return nil
	}
	_, synth := syntheticCodes(20, 10, "temh")
	if err := temHamming(synth, "synthetic 20 codes × 10 bits", []temCase{{0.5, 3}, {1.5, 2.5}, {1, 0}, {0.8, 5}}); err != nil {
		return Table{}, err
	}
	if s != nil {
		if err := temHamming(s.codes, vocabA+": 256-bit codes", []temCase{{0.1, 0}, {0.3, 110}, {1, 100}}); err != nil {
			return Table{}, err
		}
	}

	// SanText and SanText+ (TEM (Hamming) at γ = 256) on the same codes.
	santextPlus := []sanTextPlusCase{{0.5, 0.4, 0.2}, {1.5, 0.25, 0.9}, {0.8, 0.4, 1}}
	if err := sanTextCases(&t, synth, "synthetic 20 codes × 10 bits", []float64{0.5, 1.5}, santextPlus); err != nil {
		return Table{}, err
	}
	if s != nil {
		if err := sanTextCases(&t, s.codes, vocabA+": 256-bit codes", []float64{0.1, 0.3}, []sanTextPlusCase{{0.1, 0.5, 0.3}}); err != nil {
			return Table{}, err
		}
	}

	// CusText and CusText+ (within-set laws and the sets themselves).
	if err := cusTextCases(&t, a, k); err != nil {
		return Table{}, err
	}

	// TEM on the asset's Euclidean balls restricted to the first K words,
	// and to a dense neighbourhood (where ball sizes vary).
	if s != nil && s.tem != nil {
		for _, sub := range []struct {
			s     *subset
			vocab string
		}{{s, vocabA}, {dense, fmt.Sprintf("asset neighbourhood of %q", dense.centre)}} {
			vocab := fmt.Sprintf("%s: Euclidean balls, %d pairs ≤ γ_max", sub.vocab, sub.s.pairs)
			for _, c := range []temCase{{6, 0}, {1, 3}, {2, sub.s.gammaMax}, {0.7, 3.6}} {
				given := c.gamma
				m, err := mechanism.NewTEM(sub.s.tem, c.eps, mechanism.TEMOptions{Gamma: given})
				name := ""
				if given == 0 && errors.Is(err, wva.ErrGammaMax) {
					// Theorem 4.2's γ grows with N: audit at the stored maximum.
					given = sub.s.gammaMax
					m, err = mechanism.NewTEM(sub.s.tem, c.eps, mechanism.TEMOptions{Gamma: given})
					name = "TEM γ=" + FormatFloat(given) + " (γ_max < Thm 4.2)"
				}
				if err != nil {
					return Table{}, err
				}
				g := gammaFor(c.eps, given, len(sub.s.dist))
				if name == "" {
					name = "TEM " + gammaName(g, c.gamma)
				}
				P, err := dpexact.TEM(sub.s.dist, g, c.eps)
				t.addMech(m, name, c.eps, vocab, P, err, sub.s.auditD)
				r, allowed, err := restrictEveryThird(mechanism.NewTEM(sub.s.tem, c.eps, mechanism.TEMOptions{Gamma: given}))
				if err != nil {
					return Table{}, err
				}
				P, err = dpexact.RestrictedTEM(sub.s.dist, g, r.Epsilon(), allowed)
				t.addMech(r, strings.Replace(name, "TEM", "TEM over A", 1), c.eps, vocab+excludedNote, P, err, sub.s.auditD)
			}
		}
	} else if s != nil {
		t.Skipped = append(t.Skipped, "TEM on Euclidean balls: the asset has no TEM section")
	}

	// 1-DG and 1-DT on lists.
	type listSet struct {
		vocab string
		lists []wva.Permutation
		pos   [][]int
	}
	var sets []listSet
	if s != nil && len(s.lists) > 0 {
		sets = append(sets, listSet{vocabA + ": list 0", s.lists[:1], s.pos[:1]})
		if len(s.lists) > 1 {
			sets = append(sets, listSet{fmt.Sprintf("%s: %d lists", vocabA, len(s.lists)), s.lists, s.pos})
		}
	} else if s != nil {
		t.Skipped = append(t.Skipped, "1-DG and 1-DT on asset lists: the asset has no lists")
	}
	lp, lpos := syntheticList(30, "list")
	sets = append(sets, listSet{"synthetic list of 30", []wva.Permutation{lp}, [][]int{lpos}})
	for _, ls := range sets {
		var ds [][][]float64
		for _, p := range ls.pos {
			d, err := dpexact.ListDistances(p)
			if err != nil {
				return Table{}, err
			}
			ds = append(ds, d)
		}
		d, err := dpexact.MaxMetric(ds...)
		if err != nil {
			return Table{}, err
		}
		for _, eps := range []float64{0.2, 0.9} {
			m, err := mechanism.NewDiffractorGeometric(ls.lists, eps)
			if err != nil {
				return Table{}, err
			}
			P, err := dpexact.DiffractorGeometric(ls.pos, eps)
			t.addMech(m, "1-DG", eps, ls.vocab, P, err, d)
			r, allowed, err := restrictEveryThird(m, nil)
			if err != nil {
				return Table{}, err
			}
			P, err = dpexact.RestrictedDiffractorGeometric(ls.pos, r.Epsilon(), allowed)
			t.addMech(r, "1-DG, nearest allowed", eps, ls.vocab+excludedNote, P, err, d)
		}
		for _, c := range []temCase{{0.4, 5}, {1, 3}, {0.5, 0}, {2.5, 0}} {
			m, err := mechanism.NewDiffractorTEM(ls.lists, c.eps, mechanism.TEMOptions{Gamma: c.gamma})
			if err != nil {
				return Table{}, err
			}
			g := gammaFor(c.eps, c.gamma, len(ls.pos[0]))
			P, err := dpexact.DiffractorTEM(ls.pos, g, c.eps)
			t.addMech(m, "1-DT "+gammaName(g, c.gamma), c.eps, ls.vocab, P, err, d)
			r, allowed, err := restrictEveryThird(m, nil)
			if err != nil {
				return Table{}, err
			}
			P, err = dpexact.RestrictedDiffractorTEM(ls.pos, g, r.Epsilon(), allowed)
			t.addMech(r, "1-DT over A "+gammaName(g, c.gamma), c.eps, ls.vocab+excludedNote, P, err, d)
		}
	}

	// SynTF and the truncated Gumbel mechanism's claim, on float vectors.
	if err := floatCases(&t); err != nil {
		return Table{}, err
	}

	// Negative controls.
	low, codes := syntheticCodes(16, 10, "brr")
	P, err := dpexact.BRR(low, 10, 0.6)
	if err == nil {
		P, err = dpexact.ExcludeInput(P)
	}
	t.add("control: input exclusion (BRR)", true, 0.6, "synthetic 16 codes × 10 bits", P, err, hammingDistances(codes))
	d := hammingDistances(synth)
	P, err = dpexact.TEMBottomScoreBug(d, 3, 0.5)
	t.add("control: ⊥ score ln(N/|L_w|) (TEMHamming γ=3)", true, 0.5, "synthetic 20 codes × 10 bits", P, err, d)
	for _, k := range []int{1, 3, 8} {
		P, err := dpexact.TEMTopK(d, k, 4, 0.5)
		t.add(fmt.Sprintf("control: top-%d list as L_w (TEMHamming γ=4)", k), true, 0.5, "synthetic 20 codes × 10 bits", P, err, d)
	}
	redrawControls(&t)
	sanTextControls(&t, synth, "synthetic 20 codes × 10 bits")
	cusTextControls(&t)
	if err := floatControls(&t); err != nil {
		return Table{}, err
	}
	if dense != nil {
		vocab := fmt.Sprintf("asset neighbourhood of %q: Euclidean balls", dense.centre)
		P, err := dpexact.TEM(dense.dist, 3, 1)
		if err == nil {
			P, err = dpexact.ExcludeInput(P)
		}
		t.add("control: input exclusion (TEM γ=3)", true, 1, vocab, P, err, dense.auditD)
		P, err = dpexact.TEMBottomScoreBug(dense.dist, 3, 1)
		t.add("control: ⊥ score ln(N/|L_w|) (TEM γ=3)", true, 1, vocab, P, err, dense.auditD)
	}
	if t.err != nil {
		return Table{}, t.err
	}
	return t, nil
}

// hammingDistances is the Hamming metric of 256-bit codes.
func hammingDistances(codes []hamming.Code) [][]float64 {
	return dpexact.Distances(len(codes), func(a, b int) float64 { return float64(hamming.Distance(codes[a], codes[b])) })
}

func gammaName(g, asked float64) string {
	if asked == 0 {
		return "γ=" + FormatFloat(g) + " (Thm 4.2)"
	}
	return "γ=" + FormatFloat(g)
}

func mustIndex(codes []hamming.Code) *hamming.Index {
	x, err := hamming.NewIndex(codes)
	if err != nil {
		panic("audit: hamming index: " + err.Error()) // codes built here are always valid
	}
	return x
}

// neighbourhood is mechanism's test subset scaled to k words: the 2k/3 nearest
// members of the TEM ball of "good" (or of word 100), then words spread
// over the id range. It needs a.TEM.
func neighbourhood(a *wva.Asset, k int) []int {
	centre, ok := a.Lookup("good")
	if !ok {
		centre = min(100, a.Len()-1)
	}
	var ids []int
	for _, nb := range a.TEM.Ball(centre, nil) {
		if len(ids) == 2*k/3 {
			break
		}
		ids = append(ids, int(nb.ID))
	}
	stride := max(1, a.Len()/(k-len(ids)+1))
	for i := 0; len(ids) < k && i < a.Len(); i++ {
		id := (37 + i*stride) % a.Len()
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// subset is some words of an asset restricted to themselves: local id i
// is asset id ids[i].
type subset struct {
	centre   string // first word
	pairs    int    // ordered pairs of distinct words within γ_max
	codes    []hamming.Code
	tem      *wva.TEMLists // stored balls restricted to the subset, or nil
	dist     [][]float64   // quantized Euclidean distances, +Inf beyond γ_max
	auditD   [][]float64   // dist with +Inf replaced by (MaxSteps+1)·Step
	gammaMax float64
	lists    []wva.Permutation // stored lists restricted, same order
	pos      [][]int
}

func restrict(a *wva.Asset, ids []int) (*subset, error) {
	k := len(ids)
	if len(a.Codes) != a.Len() || a.Len() == 0 {
		return nil, errors.New("audit: asset has no words or a code count different from its word count")
	}
	local := make(map[int]int, k)
	s := &subset{centre: a.Word(ids[0]), codes: make([]hamming.Code, k)}
	for i, id := range ids {
		local[id] = i
		s.codes[i] = a.Codes[id]
	}
	if a.TEM != nil {
		step := a.TEM.Step()
		s.gammaMax = a.TEM.GammaMax()
		s.dist = dpexact.Distances(k, func(int, int) float64 { return math.Inf(1) })
		s.auditD = dpexact.Distances(k, func(int, int) float64 { return float64(a.TEM.MaxSteps()+1) * step })
		balls := make([][]wva.Neighbor, k)
		for i := range k {
			for _, nb := range a.TEM.Ball(ids[i], nil) {
				if j, ok := local[int(nb.ID)]; ok {
					balls[i] = append(balls[i], wva.Neighbor{ID: uint32(j), Dist: nb.Dist})
					s.dist[i][j] = float64(nb.Dist) * step
					s.auditD[i][j] = s.dist[i][j]
					if j != i {
						s.pairs++
					}
				}
			}
		}
		var err error
		if s.tem, err = wva.NewTEMLists(k, step, a.TEM.MaxSteps(), balls); err != nil {
			return nil, fmt.Errorf("audit: restricting TEM balls: %w", err)
		}
	}
	for _, l := range a.Lists {
		order := make([]uint32, 0, k)
		for _, id := range l.Order {
			if j, ok := local[int(id)]; ok {
				order = append(order, uint32(j))
			}
		}
		p, err := wva.NewPermutation(order)
		if err != nil {
			return nil, fmt.Errorf("audit: restricting lists: %w", err)
		}
		s.lists = append(s.lists, p)
		pos := make([]int, k)
		for w, q := range p.Pos {
			pos[w] = int(q)
		}
		s.pos = append(s.pos, pos)
	}
	return s, nil
}

// syntheticCodes is dpexact.SyntheticCodes as hamming codes (the L bits in
// word 0, the other 256−L bits zero), with the low words themselves.
func syntheticCodes(n, L int, label string) ([]uint64, []hamming.Code) {
	low := dpexact.SyntheticCodes(n, L, label)
	codes := make([]hamming.Code, n)
	for i, c := range low {
		codes[i][0] = c
	}
	return low, codes
}

// syntheticList is dpexact.SyntheticOrder as a permutation, with each
// word's position.
func syntheticList(n int, label string) (wva.Permutation, []int) {
	p, err := wva.NewPermutation(dpexact.SyntheticOrder(n, label))
	if err != nil {
		panic("audit: " + err.Error()) // a shuffled identity is a permutation
	}
	pos := make([]int, n)
	for w, q := range p.Pos {
		pos[w] = int(q)
	}
	return p, pos
}

// gammaFor is the TEM radius the audited mechanism must use: the given γ,
// or Theorem 4.2's for N words. It is computed here, independently of the
// mechanism, so that a mechanism using another γ fails the audit.
func gammaFor(eps, given float64, n int) float64 {
	if given > 0 {
		return given
	}
	g, err := mechanism.TheoremGamma(eps, mechanism.DefaultBeta, n)
	if err != nil {
		return math.NaN()
	}
	return g
}
