package mechanism

import (
	"errors"
	"fmt"
	"sort"

	"github.com/wordveil/wordveil/binaryembed/wva"
)

// Privacy levels, named by what a user can observe: the chance N_w that a
// word is released unchanged, averaged over words. The asset's presets
// record the exact target of each (on the default asset: 0.10, 0.30 and
// 0.60).
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
	// NameSanText and NameSanTextPlus are buildable by name with New but
	// are not in Names: the asset carries no presets for them. SanText+
	// also needs explicit options (Options.SanTextPlus) and protects only
	// its sensitive words, so nothing offers it unless asked by name.
	NameSanText     = "santext"
	NameSanTextPlus = "santext+"
)

// ErrUnknownMechanism and ErrUnknownLevel reject names outside the tables;
// ErrNoPreset says the asset carries no calibrated ε for this mechanism
// and level (an asset built without presets, or a level the mechanism
// cannot reach on it).
var (
	ErrUnknownMechanism = errors.New("unknown mechanism")
	ErrUnknownLevel     = errors.New("unknown privacy level")
	ErrNoPreset         = errors.New("no preset for this mechanism")
)

// Preset returns the ε of level for the named mechanism, as calibrated on
// asset a by its builder and stored in it. N_w depends on the codes and
// lists, so an ε calibrated on one asset can be far off on another: an
// asset without presets refuses level names (ErrNoPreset), and the caller
// must give ε explicitly.
func Preset(a *wva.Asset, name, level string) (float64, error) {
	if !known(name) {
		return 0, fmt.Errorf("%w %q (want one of %v)", ErrUnknownMechanism, name, allNames())
	}
	switch level {
	case LevelStrong, LevelBalanced, LevelLight:
	default:
		return 0, fmt.Errorf("%w %q (want %s, %s or %s)", ErrUnknownLevel, level, LevelStrong, LevelBalanced, LevelLight)
	}
	if a == nil || a.Header.Presets == nil {
		return 0, fmt.Errorf("%w: the asset carries no calibrated presets (give ε explicitly)", ErrNoPreset)
	}
	eps, ok := a.Header.Presets.Epsilon[name][level]
	if !ok {
		return 0, fmt.Errorf("%w: asset %q has no %s level for %q (the calibration could not reach it; give ε explicitly)", ErrNoPreset, a.Header.Name, level, name)
	}
	// wva validated the value when the asset was decoded or built: finite
	// and in (0, 10⁶]. New still checks it against the mechanism's bounds.
	return eps, nil
}

// Names lists the on-device mechanisms by name: those the asset builder
// calibrates presets for (TEM on Euclidean lists reaches no level). The
// "+" variants, which release some words unchanged, are built only when
// asked for by name with their options, and are not listed.
func Names() []string {
	names := []string{NameBRR, NameTEMHamming, NameTEM, Name1DG, Name1DT, NameSanText, NameCusText}
	sort.Strings(names)
	return names
}

// allNames is Names with the mechanisms built only by explicit name.
func allNames() []string {
	return append(Names(), NameSanTextPlus, NameCusTextPlus)
}

func known(name string) bool {
	switch name {
	case NameBRR, NameTEMHamming, NameTEM, Name1DG, Name1DT, NameSanText, NameSanTextPlus, NameCusText, NameCusTextPlus:
		return true
	}
	return false
}
