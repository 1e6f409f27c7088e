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
	// Targets maps each level name to the value it was calibrated to:
	// what Objective names, under the weighting.
	Targets map[string]float64 `json:"targets"`
	// Epsilon maps a mechanism name, then a level name, to ε in that
	// mechanism's metric. A mechanism may lack a level it cannot reach.
	Epsilon map[string]map[string]float64 `json:"epsilon"`
	// Weighting says what Targets measure: "" (WeightUniform, format 3.0)
	// the mean N_w over the vocabulary, every word alike; WeightTyped the
	// share of typed word tokens released unchanged, each word weighted
	// by its frequency in everyday text (Prior names the frequencies).
	Weighting string `json:"weighting,omitempty"`
	// Prior names the word frequencies a typed calibration weighed by.
	Prior string `json:"prior,omitempty"`
	// Objective says what a target measures: "" (ObjectiveKept) the
	// share of words released unchanged; ObjectiveTop1 the top-1
	// recovery of the Bayes-optimal one-word attacker who knows the
	// mechanism, ε and the prior (typed weighting only).
	Objective string `json:"objective,omitempty"`
	// Measured holds, per mechanism and level, what the builder measured
	// at the preset's ε (format 3.1); nil when it measured nothing.
	Measured map[string]map[string]LevelFacts `json:"measured,omitempty"`
	// HeldOut names the held-out text of LevelFacts.HeldOut.
	HeldOut string `json:"heldOut,omitempty"`
}

// The weightings of Presets.Weighting.
const (
	WeightUniform = ""
	WeightTyped   = "typed"
)

// The objectives of Presets.Objective.
const (
	ObjectiveKept = ""
	ObjectiveTop1 = "top1"
)

// LevelFacts are the measurements of one mechanism at one level's ε.
type LevelFacts struct {
	// Kept is the calibration's estimate of the level's share: the mean
	// N_w under the weighting (for WeightTyped, the share of typed
	// tokens released unchanged).
	Kept float64 `json:"kept"`
	// WorstWord is the most often kept of the most frequent words (the
	// calibration's top words), and WorstKept its estimated N_w: the
	// word a level protects least.
	WorstWord string  `json:"worstWord,omitempty"`
	WorstKept float64 `json:"worstKept,omitempty"`
	// Top1 is the calibration's estimate of the one-word attacker's
	// top-1 recovery under the prior (ObjectiveTop1); 0 when the
	// calibration did not measure it.
	Top1 float64 `json:"top1,omitempty"`
	// HeldOut are the measurements on held-out text; nil when none.
	HeldOut *HeldOutFacts `json:"heldOutFacts,omitempty"`
}

// HeldOutFacts are a level's measurements on held-out text: each token
// privatized once, rates with 95% confidence intervals.
type HeldOutFacts struct {
	// Tokens is how many in-vocabulary tokens were privatized.
	Tokens int `json:"tokens"`
	// Kept is the share released unchanged.
	Kept Rate `json:"kept"`
	// Top1 and Top5 are the reconstruction attacker's recovery: the
	// share of tokens whose input is its first guess, or among its five.
	Top1 Rate `json:"top1"`
	Top5 Rate `json:"top5"`
	// Baseline1 and Baseline5 are the same for an attacker who ignores
	// the output and guesses the most frequent words.
	Baseline1 Rate `json:"baseline1"`
	Baseline5 Rate `json:"baseline5"`
	// Bound says what the attack rates are: "exact" (the Bayes-optimal
	// attacker, the law known in closed form) or "lower" (an attacker
	// that estimated the law by sampling: a lower bound on the optimal).
	Bound string `json:"bound"`
}

// Rate is a measured proportion with its 95% confidence interval.
type Rate struct {
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// maxHeldOutTokens bounds HeldOutFacts.Tokens.
const maxHeldOutTokens = 1 << 30

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
	switch {
	case p.Weighting != WeightUniform && p.Weighting != WeightTyped:
		return "presets weighting " + quote(p.Weighting) + " unknown"
	case p.Objective != ObjectiveKept && p.Objective != ObjectiveTop1:
		return "presets objective " + quote(p.Objective) + " unknown"
	case p.Objective == ObjectiveTop1 && p.Weighting != WeightTyped:
		return "presets objective " + quote(p.Objective) + " needs the typed weighting"
	case len(p.Prior) > maxPresetMethod || len(p.HeldOut) > maxPresetMethod:
		return "presets prior or held-out name too long"
	case len(p.Measured) > maxPresetNames:
		return "presets measured for more than 32 mechanisms"
	}
	for _, m := range sortedKeys(p.Measured) {
		for _, l := range sortedKeys(p.Measured[m]) {
			if _, ok := p.Epsilon[m][l]; !ok {
				return "measured " + quote(m) + "/" + quote(l) + ": no such preset"
			}
			if msg := p.Measured[m][l].problem(); msg != "" {
				return "measured " + quote(m) + "/" + quote(l) + ": " + msg
			}
		}
	}
	return ""
}

func (f LevelFacts) problem() string {
	switch {
	case !unit(f.Kept) || !unit(f.WorstKept):
		return "kept share outside [0, 1]"
	case !unit(f.Top1):
		return "top-1 recovery outside [0, 1]"
	case len(f.WorstWord) > MaxWordLen:
		return "worst word too long"
	case f.HeldOut == nil:
		return ""
	}
	h := f.HeldOut
	if h.Tokens < 1 || h.Tokens > maxHeldOutTokens {
		return "held-out tokens outside [1, 2^30]"
	}
	if h.Bound != "exact" && h.Bound != "lower" {
		return "held-out bound " + quote(h.Bound) + " unknown"
	}
	for _, r := range []Rate{h.Kept, h.Top1, h.Top5, h.Baseline1, h.Baseline5} {
		if !unit(r.Lo) || !unit(r.Rate) || !unit(r.Hi) || r.Lo > r.Rate || r.Rate > r.Hi {
			return "held-out rate not 0 ≤ lo ≤ rate ≤ hi ≤ 1"
		}
	}
	return ""
}

// unit reports whether x is in [0, 1] (NaN is not).
func unit(x float64) bool { return x >= 0 && x <= 1 }

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
