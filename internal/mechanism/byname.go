package mechanism

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

// Privacy levels, named by what a user can observe: the chance N_w that a
// word is released unchanged, averaged over words as the asset's builder
// weighed them (the default asset: by their frequency in everyday typed
// text, so a level keeps the same share of typed words for every
// mechanism). The asset's presets record the target and weighting of
// each (the default asset's: docs/PRIVACY_LEVELS.md, generated from it).
const (
	LevelStrong   = "strong"
	LevelBalanced = "balanced"
	LevelLight    = "light"
)

// Mechanism names, as used by presets, the CLI and the mobile API.
const (
	NameBRR        = "brr"
	NameTEMHamming = "tem-hamming"
	NameTEM        = "tem"
	Name1DG        = "1dg"
	Name1DT        = "1dt"
	// NameSanText: the default asset carries presets for it (calibrated
	// like the others). SanText+, which releases non-sensitive words
	// unchanged, is not offered (see internal/keepwords).
	NameSanText = "santext"
)

// ErrUnknownMechanism and ErrUnknownLevel reject names outside the tables;
// ErrNotOffered, a mechanism New builds but the front doors do not offer
// (CheckOffered); ErrNoPreset says the asset carries no calibrated ε for this mechanism
// and level (an asset built without presets, or a level the mechanism
// cannot reach on it).
var (
	ErrUnknownMechanism = errors.New("unknown mechanism")
	ErrUnknownLevel     = errors.New("unknown privacy level")
	ErrNotOffered       = errors.New("mechanism not offered")
	ErrNoPreset         = errors.New("no preset for this mechanism")
)

// Preset returns the ε of level for the named mechanism, as calibrated on
// asset a by its builder and stored in it. N_w depends on the codes and
// lists, so an ε calibrated on one asset can be far off on another: an
// asset without presets refuses level names (ErrNoPreset), and the caller
// must give ε explicitly.
func Preset(a *wva.Asset, name, level string) (float64, error) {
	if !known(name) {
		return 0, unknownMechanism(name)
	}
	switch level {
	case LevelStrong, LevelBalanced, LevelLight:
	default:
		return 0, fmt.Errorf("mechanism: %w %q (want %s, %s or %s)", ErrUnknownLevel, level, LevelStrong, LevelBalanced, LevelLight)
	}
	if a == nil || a.Header.Presets == nil {
		return 0, errwrap.Tag(ErrNoPreset, "%s: the asset carries no calibrated presets (give ε explicitly)", name)
	}
	eps, ok := a.Header.Presets.Epsilon[name][level]
	if !ok {
		return 0, errwrap.Tag(ErrNoPreset, "%s: asset %q has no %s level for this mechanism (the calibration could not reach it; give ε explicitly)", name, a.Header.Name, level)
	}
	// wva validated the value when the asset was decoded or built: finite
	// and in (0, 10⁶]. New still checks it against the mechanism's bounds.
	return eps, nil
}

// Names lists every mechanism New builds: each never releases a word by
// construction. The "+" variants, which release some words unchanged, are
// not among them (internal/keepwords).
func Names() []string {
	names := []string{NameBRR, NameTEMHamming, NameTEM, Name1DG, Name1DT, NameSanText, NameCusText}
	sort.Strings(names)
	return names
}

// The product's front doors (package core, and through it the CLI, the
// mobile binding and the Beam pipeline) offer every mechanism New builds
// but NameTEM. TEM over the asset's Euclidean lists stays here, for the
// research module and the audit, because on the device it cannot protect:
// the lists hold, for each word, the words within γ_max (3.81 on the
// embedded asset), so Theorem 4.2's γ fits in them only from ε ≈ 9.31, and
// at such an ε a neighbour at Euclidean distance d weighs e^(−ε·d/2)
// against the word itself: nearly every word comes back unchanged (mean
// N_w ≈ 0.999, docs/PRIVACY_LEVELS.md). The device's TEM over
// precomputed neighbour lists is 1-DT: TEM along 1-Diffractor's lists.

// Offered lists, sorted, the mechanisms the product's front doors offer:
// Names without NameTEM.
func Offered() []string {
	return slices.DeleteFunc(Names(), func(n string) bool { return n == NameTEM })
}

// CheckOffered refuses name, a mechanism New builds but the product does
// not offer (ErrNotOffered), quoting the figures of asset a where it has
// them (a may be nil); nil when name is offered, or unknown (New's error
// says so).
func CheckOffered(name string, a *wva.Asset) error {
	if name != NameTEM {
		return nil
	}
	const use = "use 1dt (TEM over 1-Diffractor's precomputed lists) or tem-hamming (TEM on the codes)"
	if a == nil || a.Header.TEM == nil {
		return errwrap.Tag(ErrNotOffered, "%s (TEM over an asset's Euclidean lists) is not offered: the ε its lists admit keep nearly every word; %s", name, use)
	}
	g := a.Header.TEM.GammaMax
	return errwrap.Tag(ErrNotOffered, "%s (TEM over the asset's Euclidean lists) is not offered: on this asset its lists (γ_max %v) admit only ε ≥ %v, where it keeps nearly every word; %s",
		name, g, roundUp(listsFloor(a.Header.Words, g, TEMOptions{})), use)
}

// unknownMechanism is the error for a name outside Names.
func unknownMechanism(name string) error {
	return errwrap.Tag(ErrUnknownMechanism, "mechanism: unknown name %q (want one of %v)", name, Names())
}

func known(name string) bool {
	switch name {
	case NameBRR, NameTEMHamming, NameTEM, Name1DG, Name1DT, NameSanText, NameCusText:
		return true
	}
	return false
}

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
