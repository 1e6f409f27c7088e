package mechanism

import (
	"errors"
	"fmt"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/keepwords"
	"github.com/wordveil/wordveil/internal/wva"
)

// plusOpts are SanText+'s options, for the tests of the "+" variants.
type plusOpts = keepwords.SanTextPlusOptions

var errNoPlusOptions = errors.New("test: santext+ needs its options")

// newWith is New, plus the "+" variants built the way New builds the
// others (saturation check, then Restrict): the tests of those variants
// use it; the product cannot.
func newWith(name string, a *wva.Asset, eps float64, opts Options, plus *plusOpts) (Mechanism, error) {
	var m Mechanism
	switch name {
	case keepwords.NameSanTextPlus:
		if plus == nil {
			return nil, errNoPlusOptions
		}
		idx, err := hamming.NewIndex(a.Codes)
		if err != nil {
			return nil, err
		}
		if m, err = asMechanism(newSanTextPlus(idx, eps, *plus, nil)); err != nil {
			return nil, err
		}
	case keepwords.NameCusTextPlus:
		var err error
		if m, err = newCusTextPlus(a, eps); err != nil {
			return nil, err
		}
	default:
		return New(name, a, eps, opts)
	}
	if err := checkSaturation(m, opts.AllowSaturated); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if opts.Outputs == nil {
		return m, nil
	}
	return Restrict(m, opts.Outputs)
}

// TestNewOffersNoKeepingMechanism: every name New accepts (Names) builds
// a mechanism, and the two "+" variants, which release some words
// unchanged by construction, are unknown to it and to Preset; they are
// reachable through internal/keepwords only (registered by this package).
func TestNewOffersNoKeepingMechanism(t *testing.T) {
	a := defaultAsset(t)
	for _, name := range Names() {
		eps := 0.5
		if name == NameTEM {
			eps = 10 // γ must fit the lists' γ_max
		}
		if _, err := New(name, a, eps, Options{}); err != nil {
			t.Errorf("New(%s): %v", name, err)
		}
	}
	for _, name := range []string{keepwords.NameSanTextPlus, keepwords.NameCusTextPlus} {
		if m, err := New(name, a, 0.5, Options{}); !errors.Is(err, ErrUnknownMechanism) || m != nil {
			t.Errorf("New(%s) = (%v, %v), want ErrUnknownMechanism", name, m, err)
		}
		if _, err := Preset(a, name, LevelBalanced); !errors.Is(err, ErrUnknownMechanism) {
			t.Errorf("Preset(%s): %v, want ErrUnknownMechanism", name, err)
		}
		for _, n := range Names() {
			if n == name {
				t.Errorf("Names lists %s", name)
			}
		}
	}
	// Control: the variants exist, through the internal path.
	idx, err := hamming.NewIndex(a.Codes)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := keepwords.NewSanTextPlus(idx, 0.5, plusOpts{Sensitive: 0.5, P: 0.3}); err != nil || m.(Facts).Name() != keepwords.NameSanTextPlus {
		t.Errorf("keepwords.NewSanTextPlus: %v", err)
	}
	ct, _ := custextTestAsset(t, 20, 5)
	if m, err := keepwords.NewCusTextPlus(ct.a, 0.5); err != nil || m.(Facts).Name() != keepwords.NameCusTextPlus {
		t.Errorf("keepwords.NewCusTextPlus: %v", err)
	}
}
