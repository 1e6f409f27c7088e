package audit

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/keepwords"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// CusText is audited in two parts, because its guarantee has two:
//
//   - the law inside a set: dpexact.Check of the exact law against
//     SameSet ((1/256)·Hamming within a set, unconstrained across), and
//     the same law against "1 between any two words" as an expected
//     violation, by design (the output discloses the set);
//   - the sets themselves: each group must be the greedy nearest-
//     unassigned construction, recomputed exactly from the codes. The
//     within-set law is ε-DP for ANY partition, so a builder that groups
//     the wrong words (pypantera's cosine branch keeps the K least
//     similar) is caught only here. Sets that fail make Run fail with an
//     error (fail closed: no law is audited over them); the rows of sets
//     that pass say how many groups were re-derived. The negative control
//     row's "worst excess" is the number of groups that differ.

// custextSyntheticK is the group size of the sets built here.
const custextSyntheticK = 5

// custextSampleGroups bounds the groups of an asset re-derived from the
// codes (each costs one sort of the unassigned words).
const custextSampleGroups = 48

// cusTextCases audits CusText and CusText+ on synthetic codes and on the
// asset: over its stored sets when it has them (after re-deriving a
// sample of them), else over sets built here on its first k words.
func cusTextCases(t *Table, a *wva.Asset, k int) error {
	_, codes := syntheticCodes(20, 10, "custext")
	words := make([]string, len(codes))
	for i := range words {
		words[i] = "w" + strconv.Itoa(i)
	}
	words[2], words[9] = "the", "of" // CusText+'s stop words
	syn, err := builtHere(words, codes)
	if err != nil {
		return err
	}
	if err := cusTextLaws(t, syn, "synthetic 20 codes × 10 bits, "+setsNote(syn.CusText, allGroups(syn.CusText)), []float64{2, 150}); err != nil {
		return err
	}
	switch {
	case a == nil:
		return nil
	case a.CusText == nil:
		k = min(k, 40)
		sub, err := builtHere(a.WordList()[:k], a.Codes[:k])
		if err != nil {
			return err
		}
		return cusTextLaws(t, sub, fmt.Sprintf("asset first %d: 256-bit codes, %s", k, setsNote(sub.CusText, allGroups(sub.CusText))), []float64{1, 30})
	}
	g := a.CusText.Groups()
	var sample []int
	for i := 0; i < g; i += max(1, g/custextSampleGroups) {
		sample = append(sample, i)
	}
	if sample[len(sample)-1] != g-1 {
		sample = append(sample, g-1) // the last, possibly short, group
	}
	if bad, first := checkGreedy(a.Codes, a.CusText, sample); bad > 0 {
		return fmt.Errorf("audit: CusText: the asset's sets are not the greedy nearest-unassigned construction: %d of %d sampled groups differ (first: group %d)", bad, len(sample), first)
	}
	sub, err := wholeGroups(a, 40)
	if err != nil {
		return err
	}
	vocab := fmt.Sprintf("asset: first %d stored sets, 256-bit codes; %d of %d stored groups re-derived", sub.CusText.Groups(), len(sample), g)
	return cusTextLaws(t, sub, vocab, []float64{1, 30})
}

// builtHere is an asset of words and codes with sets built here by the
// greedy construction (and re-derived, as the asset's are).
func builtHere(words []string, codes []hamming.Code) (*wva.Asset, error) {
	sets, err := wva.NewCusTextSets(len(codes), custextSyntheticK, greedyGroups(codes, custextSyntheticK, false))
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	if bad, first := checkGreedy(codes, sets, allGroups(sets)); bad > 0 {
		return nil, fmt.Errorf("audit: CusText: sets built here differ from the construction at group %d", first)
	}
	return (&wva.Asset{Codes: codes, CusText: sets}).SetWords(words), nil
}

// setsNote describes sets whose listed groups were re-derived.
func setsNote(s *wva.CusTextSets, groups []int) string {
	return fmt.Sprintf("greedy sets of %d built here (%d/%d groups re-derived)", s.K(), len(groups), s.Groups())
}

// cusTextLaws adds the law cases of CusText and CusText+ over a's sets.
func cusTextLaws(t *Table, a *wva.Asset, vocab string, epss []float64) error {
	n := a.Len()
	d := hammingDistances(a.Codes)
	groups := make([]int, n)
	stop := make([]bool, n)
	for w := range n {
		groups[w] = a.CusText.GroupOf(w)
		stop[w] = keepwords.IsStopWord(a.Word(w))
	}
	same, err := dpexact.SameSet(d, groups, nil)
	if err != nil {
		return err
	}
	samePlus, err := dpexact.SameSet(d, groups, stop)
	if err != nil {
		return err
	}
	stopShares := false // some stop word shares its set with another word
	for w := range n {
		stopShares = stopShares || stop[w] && len(a.CusText.Members(groups[w], nil)) > 1
	}
	everyPair := dpexact.Distances(n, func(x, y int) float64 { return float64(min(1, abs(x-y))) })
	for _, eps := range epss {
		m, err := mechanism.NewCusText(a, eps)
		if err != nil {
			return err
		}
		P, err := dpexact.CusText(d, groups, m.Epsilon(), nil)
		t.addMech(m, "CusText, same-set pairs", eps, vocab, P, err, same)
		if a.CusText.Groups() > 1 {
			// Two sets: an output of one is impossible from the other.
			t.add("expected violation (by design): CusText, all pairs at ε", true, eps, vocab, P, err, everyPair)
		}
		r, allowed, err := restrictEveryThird(m, nil)
		if err != nil {
			return err
		}
		P, err = dpexact.CusText(d, groups, r.Epsilon(), allowed)
		t.addMech(r, "CusText over A, same-set pairs", eps, vocab+excludedNote, P, err, same)

		mp, err := keepwords.NewCusTextPlus(a, eps)
		if err != nil {
			return err
		}
		P, err = dpexact.CusTextPlus(d, groups, stop, mp.Epsilon(), nil)
		t.addMech(mp, "CusText+, same-set pairs of non-stop words", eps, vocab, P, err, samePlus)
		if stopShares {
			// A stop word never releases its set-mates, which do.
			t.add("expected violation (by design): CusText+, same-set pairs with stop words", true, eps, vocab, P, err, same)
		}
		r, allowed, err = restrictEveryThird(mp, nil)
		if err != nil {
			return err
		}
		P, err = dpexact.CusTextPlus(d, groups, stop, r.Epsilon(), allowed)
		t.addMech(r, "CusText+ over A, same-set pairs of non-stop words", eps, vocab+excludedNote, P, err, samePlus)
	}
	return nil
}

// cusTextControls adds CusText's negative controls: sets of the K−1 LEAST
// similar unassigned words (pypantera's cosine bug), which the set audit
// must reject, and the law without its factor 1/2.
func cusTextControls(t *Table) {
	_, codes := syntheticCodes(20, 10, "custext")
	vocab := "synthetic 20 codes × 10 bits, sets of " + strconv.Itoa(custextSyntheticK)
	bad, err := wva.NewCusTextSets(len(codes), custextSyntheticK, greedyGroups(codes, custextSyntheticK, true))
	if err != nil {
		t.err = cmp.Or(t.err, fmt.Errorf("audit: %w", err))
		return
	}
	t.addSets("control: CusText sets of the least similar words", true, vocab,
		&wva.Asset{Codes: codes, CusText: bad}, allGroups(bad))
	good, err := wva.NewCusTextSets(len(codes), custextSyntheticK, greedyGroups(codes, custextSyntheticK, false))
	if err != nil {
		t.err = cmp.Or(t.err, fmt.Errorf("audit: %w", err))
		return
	}
	groups := make([]int, len(codes))
	for w := range groups {
		groups[w] = good.GroupOf(w)
	}
	d := hammingDistances(codes)
	same, err := dpexact.SameSet(d, groups, nil)
	P, err2 := dpexact.CusTextNoHalf(d, groups, 150)
	t.add("control: CusText scored exp(ε·u), no 1/2", true, 150, vocab, P, cmp.Or(err, err2), same)
}

// addSets appends a case that checks the listed groups of a.CusText
// against the greedy construction, as a negative control (real sets are
// checked by cusTextCases, which fails Run instead).
func (t *Table) addSets(name string, control bool, vocab string, a *wva.Asset, groups []int) {
	t.addCase(Case{Name: name + " (excess = groups not re-derived)", Control: control, Vocabulary: vocab,
		sets: &setsCheck{a: a, groups: groups}}, nil)
}

// audit is Case.Audit for a check of sets: Excess is the number of
// groups that differ.
func (s *setsCheck) audit(c Case) Result {
	bad, first := checkGreedy(s.a.Codes, s.a.CusText, s.groups)
	r := Result{Mechanism: c.Name, Control: c.Control, Vocabulary: c.Vocabulary,
		Report: Report{Excess: float64(bad), W: -1, W2: -1, Y: -1}}
	r.N = s.a.CusText.Len()
	if bad > 0 {
		r.Report.W = first
	}
	switch {
	case !c.Control && bad == 0:
		r.OK, r.Status = true, "PASS"
	case !c.Control:
		r.Status = "FAIL"
	case bad > 0:
		r.OK, r.Status = true, "expected violation: caught"
	default:
		r.Status = "expected violation: NOT CAUGHT"
	}
	return r
}

// checkGreedy re-derives each listed group from the codes and returns how
// many differ, and the first that does (−1 if none). A group's seed is its
// lowest id; the words unassigned when it was built are those whose own
// group's seed is not lower. The group must be the seed plus the K−1
// unassigned words nearest to it by (Hamming distance, id), or all of them
// if fewer remain. This checks the stored sets by the definition, group by
// group, so a sample of a large asset is checked exactly.
func checkGreedy(codes []hamming.Code, s *wva.CusTextSets, groups []int) (bad, first int) {
	first = -1
	n := s.Len()
	seedOf := make([]uint32, s.Groups())
	for g := range seedOf {
		seedOf[g] = s.Members(g, nil)[0]
	}
	type cand struct{ d, id int }
	var cs []cand
	for _, g := range groups {
		m := s.Members(g, nil)
		seed := int(m[0])
		cs = cs[:0]
		for w := range n {
			if w != seed && int(seedOf[s.GroupOf(w)]) >= seed {
				cs = append(cs, cand{hamming.Distance(codes[seed], codes[w]), w})
			}
		}
		slices.SortFunc(cs, func(a, b cand) int { return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.id, b.id)) })
		want := []uint32{uint32(seed)}
		for _, c := range cs[:min(s.K()-1, len(cs))] {
			want = append(want, uint32(c.id))
		}
		slices.Sort(want)
		if !slices.Equal(want, m) {
			bad++
			if first < 0 {
				first = g
			}
		}
	}
	return bad, first
}

// greedyGroups builds the sets the slow, obvious way: the lowest
// unassigned id and its k−1 nearest unassigned words by (distance, id);
// farthest takes the k−1 farthest instead (the negative control).
func greedyGroups(codes []hamming.Code, k int, farthest bool) [][]uint32 {
	done := make([]bool, len(codes))
	var out [][]uint32
	for seed := range codes {
		if done[seed] {
			continue
		}
		var rest []int
		for w := seed + 1; w < len(codes); w++ {
			if !done[w] {
				rest = append(rest, w)
			}
		}
		key := func(w int) int {
			d := hamming.Distance(codes[seed], codes[w])
			if farthest {
				return -d
			}
			return d
		}
		slices.SortStableFunc(rest, func(x, y int) int { return cmp.Compare(key(x), key(y)) })
		g := []uint32{uint32(seed)}
		done[seed] = true
		for _, w := range rest[:min(k-1, len(rest))] {
			g = append(g, uint32(w))
			done[w] = true
		}
		out = append(out, g)
	}
	return out
}

func allGroups(s *wva.CusTextSets) []int {
	g := make([]int, s.Groups())
	for i := range g {
		g[i] = i
	}
	return g
}

// wholeGroups is the sub-vocabulary of a made of its first groups (in
// canonical order) until at least minWords words, renumbered in id order,
// with those groups as its sets: CusText's law on it is the asset's law
// on those words.
func wholeGroups(a *wva.Asset, minWords int) (*wva.Asset, error) {
	s := a.CusText
	var ids []uint32
	var gs [][]uint32
	for g := 0; g < s.Groups() && len(ids) < minWords && len(ids)+s.K() <= MaxWords; g++ {
		m := s.Members(g, nil)
		ids = append(ids, m...)
		gs = append(gs, m)
	}
	slices.Sort(ids)
	local := make(map[uint32]uint32, len(ids))
	sub := &wva.Asset{}
	for i, id := range ids {
		local[id] = uint32(i)
		sub.SetWords(append(sub.WordList(), a.Word(int(id))))
		sub.Codes = append(sub.Codes, a.Codes[id])
	}
	for _, m := range gs {
		for i := range m {
			m[i] = local[m[i]]
		}
	}
	// Every group but possibly the asset's last has K words; a sub-
	// vocabulary that ends on a short group is still canonical.
	sets, err := wva.NewCusTextSets(len(ids), s.K(), gs)
	if err != nil {
		return nil, fmt.Errorf("audit: CusText sub-vocabulary: %w", err)
	}
	sub.CusText = sets
	return sub, nil
}

func abs(x int) int { return max(x, -x) }
