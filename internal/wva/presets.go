package wva

import (
	"sort"
	"strconv"

	"github.com/wordveil/wordveil/internal/epsrange"
)

// Presets are named privacy levels calibrated on one asset: for each
// mechanism, the ε at which its mean plausible deniability N_w (the chance
// a word is released unchanged) is near each level's target. N_w depends
// on the codes and lists, so the values live with them, in the asset that
// was measured; another asset needs its own calibration.
type Presets struct {
	// Method says how the values were found, for humans.
	Method string `json:"method"`
	// Targets maps each level name to the mean N_w it was calibrated to.
	Targets map[string]float64 `json:"targets"`
	// Epsilon maps a mechanism name, then a level name, to ε in that
	// mechanism's metric. A mechanism may lack a level it cannot reach.
	Epsilon map[string]map[string]float64 `json:"epsilon"`
}

// Bounds on the presets a header may carry.
const (
	maxPresetNames  = 32
	maxPresetName   = 64
	maxPresetMethod = 4096
)

// checkPresets returns "" when p is well formed (every target in (0, 1),
// every level known, every ε a finite number in the accepted range of
// its mechanism on this asset: in [floor, 10⁶] with the floor of
// epsrange.PresetFloor for the mechanism's metric on h's vocabulary, and
// in (0, 10⁶] for a name with no known metric), else the first problem.
// A nil p is well formed. The saturation ceiling needs the mechanism
// itself; package mechanism checks it when the preset is used.
func checkPresets(h *Header) string {
	p := h.Presets
	if p == nil {
		return ""
	}
	badName := func(s string) bool { return s == "" || len(s) > maxPresetName }
	switch {
	case len(p.Method) > maxPresetMethod:
		return "presets method too long"
	case len(p.Targets) == 0 || len(p.Targets) > maxPresetNames:
		return "presets need 1 to 32 levels"
	case len(p.Epsilon) > maxPresetNames:
		return "presets for more than 32 mechanisms"
	}
	for _, l := range sortedKeys(p.Targets) {
		if t := p.Targets[l]; badName(l) || !(t > 0 && t < 1) {
			return "preset level " + quote(l) + ": bad name or target outside (0, 1)"
		}
	}
	gammaMax := 0.0
	if h.TEM != nil {
		gammaMax = h.TEM.GammaMax
	}
	for _, m := range sortedKeys(p.Epsilon) {
		if badName(m) {
			return "preset mechanism " + quote(m) + ": bad name"
		}
		for _, l := range sortedKeys(p.Epsilon[m]) {
			e := p.Epsilon[m][l]
			if _, ok := p.Targets[l]; !ok {
				return "preset " + quote(m) + "/" + quote(l) + ": unknown level"
			}
			floor, _ := epsrange.PresetFloor(m, h.Words, gammaMax)
			if msg := epsrange.Problem(e, floor); msg != "" {
				return "preset " + quote(m) + "/" + quote(l) + ": " + msg
			}
		}
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func quote(s string) string {
	if len(s) > maxPresetName {
		s = s[:maxPresetName] + "…"
	}
	return strconv.Quote(s)
}

// checkExcluded returns "" when x is well formed for n words (ids strictly
// ascending and below n, at least one word left allowed), else the
// problem. A nil x is well formed.
func checkExcluded(x *Excluded, n int) string {
	if x == nil {
		return ""
	}
	if len(x.Source) > maxPresetMethod || len(x.Licence) > maxPresetName {
		return "excluded: source or licence too long"
	}
	if len(x.IDs) >= n {
		return "excluded: every word excluded"
	}
	for i, id := range x.IDs {
		if int64(id) >= int64(n) {
			return "excluded: id " + strconv.Itoa(int(id)) + " out of range"
		}
		if i > 0 && id <= x.IDs[i-1] {
			return "excluded: ids not strictly ascending"
		}
	}
	return ""
}
