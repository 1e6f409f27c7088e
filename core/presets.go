package core

import (
	"errors"
	"fmt"
	"sort"
)

// Privacy levels, named by what a user can observe: the chance N_w that a
// word is released unchanged, averaged over words of the default asset.
const (
	LevelStrong   = "strong"   // N_w ≈ 0.10
	LevelBalanced = "balanced" // N_w ≈ 0.30
	LevelLight    = "light"    // N_w ≈ 0.60
)

// Mechanism names, as used by presets, the CLI and the mobile API.
const (
	NameBRR        = "brr"
	NameTEMHamming = "tem-hamming"
	NameTEM        = "tem"
	Name1DG        = "1dg"
	Name1DT        = "1dt"
)

// ErrUnknownMechanism and ErrUnknownLevel reject names outside the tables;
// ErrNoPreset says a mechanism cannot reach a level (TEM on the asset's
// Euclidean lists releases the input almost always at every ε it serves).
var (
	ErrUnknownMechanism = errors.New("unknown mechanism")
	ErrUnknownLevel     = errors.New("unknown privacy level")
	ErrNoPreset         = errors.New("no preset for this mechanism")
)

// LevelTargets maps each level to the mean N_w it was calibrated to.
var LevelTargets = map[string]float64{LevelStrong: 0.10, LevelBalanced: 0.30, LevelLight: 0.60}

// presets are the ε of each level, calibrated on the embedded default asset
// (en-glove100-50k: NLB codes, 2 lists) by `go run ./research/cmd/wvcalibrate`
// (bisection on log ε until the mean N_w of a seeded 100-word sample, 200
// draws each, is within 0.02 of the target); docs/PRIVACY_LEVELS.md has
// the table and what it means. TestPresetsHitTargets re-measures them with
// another seed. They hold for the default asset only: calibrate again for
// another asset.
var presets = map[string]map[string]float64{
	NameBRR:        {LevelStrong: 0.3873, LevelBalanced: 0.4845, LevelLight: 0.5965}, // per bit
	NameTEMHamming: {LevelStrong: 0.1416, LevelBalanced: 0.1656, LevelLight: 0.1899}, // per bit
	Name1DG:        {LevelStrong: 0.1911, LevelBalanced: 0.6153, LevelLight: 1.382},  // per list position
	Name1DT:        {LevelStrong: 0.3924, LevelBalanced: 1.263, LevelLight: 2.839},   // per list position
}

// PresetEpsilon returns the ε of level for the named mechanism on the
// default asset.
func PresetEpsilon(mechanism, level string) (float64, error) {
	if _, ok := LevelTargets[level]; !ok {
		return 0, fmt.Errorf("%w %q (want %s, %s or %s)", ErrUnknownLevel, level, LevelStrong, LevelBalanced, LevelLight)
	}
	p, ok := presets[mechanism]
	if !ok {
		if mechanism == NameTEM {
			return 0, fmt.Errorf("%w %q: its lists serve only ε ≥ 8.35, where N_w ≈ 1 (use %q)", ErrNoPreset, mechanism, NameTEMHamming)
		}
		return 0, fmt.Errorf("%w %q (want one of %v)", ErrUnknownMechanism, mechanism, MechanismNames())
	}
	return p[level], nil
}

// MechanismNames lists the on-device mechanisms by name.
func MechanismNames() []string {
	names := []string{NameBRR, NameTEMHamming, NameTEM, Name1DG, Name1DT}
	sort.Strings(names)
	return names
}
