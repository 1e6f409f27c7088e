package core

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"

	"github.com/wordveil/wordveil/binaryembed/wva"
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

// presetFingerprint identifies the data the presets were calibrated on:
// the SHA-256 of the default asset's codes and 1-Diffractor lists (what
// N_w depends on for the preset mechanisms), so the presets also apply to
// a research build of the same asset that carries float vectors, and to
// nothing else.
const presetFingerprint = "0d71f59b7a42a4b6d9962c56bba1d4b2d87a7073c39fe7fa8ee6118723a9c88c"

// CheckPresets reports whether the presets apply to a: nil for the asset
// they were calibrated on (the embedded default), otherwise an error
// wrapping ErrNoPreset. An ε calibrated on one vocabulary and binarization
// can be far off on another (N_w depends on the codes' geometry), so
// callers must give ε explicitly for any other asset.
func CheckPresets(a *wva.Asset) error {
	if a == nil {
		return fmt.Errorf("%w: no asset", ErrNoPreset)
	}
	if fingerprint(a) != presetFingerprint {
		return fmt.Errorf("%w: the presets are calibrated on the embedded asset en-glove100-50k; asset %q differs (give ε explicitly)", ErrNoPreset, a.Header.Name)
	}
	return nil
}

// fingerprint hashes a's codes and lists in a fixed byte order.
func fingerprint(a *wva.Asset) string {
	h := sha256.New()
	var buf [8]byte
	for _, c := range a.Codes {
		for _, w := range c {
			binary.LittleEndian.PutUint64(buf[:], w)
			h.Write(buf[:])
		}
	}
	for _, l := range a.Lists {
		for _, id := range l.Order {
			binary.LittleEndian.PutUint32(buf[:4], uint32(id))
			h.Write(buf[:4])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
