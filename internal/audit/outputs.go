package audit

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/mechanism"
)

// excludedNote is appended to the vocabulary of every restricted case.
const excludedNote = "; outputs: ids 0,3,6,… excluded"

// everyThird is the output vocabulary of n words without the ids 0, 3,
// 6, … (the input word 0, the most frequent, among them; id 1 is always
// kept), and the same set as dpexact takes it.
func everyThird(n int) (*mechanism.Outputs, []bool, error) {
	var excluded []int
	allowed := make([]bool, n)
	for i := range n {
		if i%3 == 0 {
			excluded = append(excluded, i)
		} else {
			allowed[i] = true
		}
	}
	o, err := mechanism.NewOutputs(n, excluded)
	if err != nil {
		return nil, nil, fmt.Errorf("audit: %w", err)
	}
	return o, allowed, nil
}

// restrictEveryThird restricts m (built by package mechanism) to
// everyThird, so that the audit checks a restriction the library accepts,
// and returns the restricted mechanism (its ε is read back from it) and
// the allowed set.
func restrictEveryThird(m mechanism.Mechanism, err error) (mechanism.Mechanism, []bool, error) {
	if err != nil {
		return nil, nil, err
	}
	o, allowed, err := everyThird(m.Len())
	if err != nil {
		return nil, nil, err
	}
	r, err := mechanism.Restrict(m, o)
	if err != nil {
		return nil, nil, fmt.Errorf("audit: %w", err)
	}
	if f, ok := r.(mechanism.Facts); !ok || f.Outputs() != o {
		return nil, nil, fmt.Errorf("audit: %s: the restricted mechanism does not report its outputs", m.Metric())
	}
	return r, allowed, nil
}

// redrawControls adds the negative controls of output vocabularies:
// BRR and 1-DG restricted by re-drawing until the output is allowed,
// which divides by Pr[A | w] and can nearly double the privacy loss, on
// small vocabularies where it does.
func redrawControls(t *Table) {
	const eps = 2
	// 1-DG on one list of four words with only the two ends allowed:
	// from position 1 the noisy position is pushed to an end far less
	// often than from position 0, and the renormalization shows it.
	line := []int{0, 1, 2, 3}
	ends := []bool{true, false, false, true}
	d, err := dpexact.ListDistances(line)
	P, err2 := dpexact.DiffractorGeometric([][]int{line}, eps)
	if err == nil {
		err = err2
	}
	if err == nil {
		P, err = dpexact.Redraw(P, ends)
	}
	t.add("control: re-draw until allowed (1-DG)", true, eps, "list of 4; outputs: the 2 ends", P, err, d)
	// BRR on 8 codes of 4 bits with only 0000 and 0111 allowed.
	codes := []uint64{0, 1, 3, 7, 15, 5, 6, 2}
	allowed := []bool{true, false, false, true, false, false, false, false}
	P, err = dpexact.BRR(codes, 4, eps)
	if err == nil {
		P, err = dpexact.Redraw(P, allowed)
	}
	t.add("control: re-draw until allowed (BRR)", true, eps, "synthetic 8 codes × 4 bits; outputs: 0000, 0111", P, err, dpexact.HammingDistances(codes))
}
