package core

import (
	"errors"
	"fmt"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/hamming"
)

// ErrNoTEMLists is returned for TEM over the Euclidean lists on an asset
// built without them.
var ErrNoTEMLists = errors.New("core: the asset has no TEM lists")

// NewMechanism builds the on-device mechanism called name (NameBRR,
// NameTEMHamming, NameTEM, Name1DG, Name1DT) over asset a with ε in that
// mechanism's metric (γ from Theorem 4.2 for the TEM variants). The CLI and
// the mobile API both build their mechanisms here.
func NewMechanism(name string, a *wva.Asset, eps float64) (Mechanism, error) {
	switch name {
	case NameBRR, NameTEMHamming:
		idx, err := hamming.NewIndex(a.Codes)
		if err != nil {
			return nil, fmt.Errorf("core: %s: %w", name, err)
		}
		if name == NameBRR {
			return NewBRR(idx, eps)
		}
		return NewTEMHamming(idx, eps, TEMOptions{})
	case NameTEM:
		if a.TEM == nil {
			return nil, ErrNoTEMLists
		}
		return NewTEM(a.TEM, eps, TEMOptions{})
	case Name1DG:
		return NewDiffractorGeometric(a.Lists, eps)
	case Name1DT:
		return NewDiffractorTEM(a.Lists, eps, TEMOptions{})
	}
	return nil, fmt.Errorf("%w %q (want one of %v)", ErrUnknownMechanism, name, MechanismNames())
}
