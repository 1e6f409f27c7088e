package mechanism

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

// Options adjust New.
type Options struct {
	// AllowSaturated accepts ε above the mechanism's SaturationEpsilon,
	// where the output is almost surely the input (for experiments that
	// sweep ε). Off, such an ε is refused with ErrEpsilonSaturated.
	AllowSaturated bool
	// Outputs, if not nil, restricts what the mechanism may release (see
	// Outputs and Restrict): it must cover the asset's vocabulary
	// (Vocabulary() = the asset's word count, else ErrOutputsMismatch).
	Outputs *Outputs
}

// New builds the on-device mechanism called name (one of Names: NameBRR,
// NameTEMHamming, NameTEM, Name1DG, Name1DT, NameSanText, NameCusText)
// over asset a with ε in that mechanism's metric (γ from Theorem 4.2 for
// the TEM variants). The CLI and the mobile API both build their
// mechanisms here. Every one of them never releases a word by
// construction; "santext+" and "custext+", which do, are unknown here
// (ErrUnknownMechanism). It refuses ε outside the mechanism's accepted
// range (ErrInvalidEpsilon: below its EpsilonFloor or above MaxEpsilon),
// and above its SaturationEpsilon unless opts.AllowSaturated
// (ErrEpsilonSaturated). opts.Outputs restricts the outputs (Restrict).
func New(name string, a *wva.Asset, eps float64, opts Options) (Mechanism, error) {
	if a == nil {
		return nil, fmt.Errorf("%s: %w", name, ErrEmptyVocabulary)
	}
	m, err := newMechanism(name, a, eps)
	if err != nil {
		return nil, err
	}
	// What m derives from a alone (P_avg; its restriction to the default
	// output vocabulary) is built once per asset and shared.
	share(m, sharedOf(a))
	if err := checkSaturation(m, opts.AllowSaturated); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if opts.Outputs == nil {
		return m, nil
	}
	return Restrict(m, opts.Outputs) // its errors name the mechanism
}

// newMechanism builds name without output restriction.
func newMechanism(name string, a *wva.Asset, eps float64) (Mechanism, error) {
	switch name {
	case NameBRR, NameTEMHamming, NameSanText:
		idx, err := hamming.NewIndex(a.Codes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		switch name {
		case NameBRR:
			return newBRR(idx, eps)
		case NameSanText:
			return newSanText(idx, eps)
		}
		return newTEMHamming(idx, eps, TEMOptions{})
	case NameTEM:
		if a.TEM == nil {
			return nil, errwrap.Tag(ErrNoLists, "%s: the asset has no Euclidean TEM lists (use an asset built with them, or another mechanism)", name)
		}
		return newTEM(a.TEM, eps, TEMOptions{})
	case Name1DG:
		return newDG(a.Lists, eps)
	case Name1DT:
		return newDT(a.Lists, eps, TEMOptions{})
	case NameCusText:
		return newCusText(a, eps, false, nil)
	}
	return nil, unknownMechanism(name)
}
