package study

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/wordveil/wordveil/research/internal/eval/attack"
	"github.com/wordveil/wordveil/research/internal/eval/levels"
)

// LevelsKind is the Kind of a LevelsRecord.
const LevelsKind = "levels"

// Rate is a measured share with its 95% interval.
type Rate struct {
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// rateOf clamps an interval into [0, 1] and around its rate: a Wilson
// bound computed in floating point may stray by an ulp, which ReadLevels
// would refuse.
func rateOf(i attack.Interval) Rate {
	c := func(x float64) float64 { return min(1, max(0, x)) }
	r := c(i.Rate)
	return Rate{Rate: r, Lo: min(c(i.Lo), r), Hi: max(c(i.Hi), r)}
}

// LevelsText describes the token sample a LevelsRecord was measured on:
// the study's training reviews as the product tokenizes them
// (levels.TextIDs) and the seeded subsample of their in-vocabulary
// tokens (levels.Subsample).
type LevelsText struct {
	// Asset is the asset's name; AssetSHA256 the hash of its file
	// (wva.Asset.SHA256), so a table can tell which asset was measured.
	Asset       string `json:"asset"`
	AssetSHA256 string `json:"asset_sha256"`
	// Reviews is the number of TR1 reviews (the study's -train).
	Reviews int `json:"reviews"`
	// Words is the word pieces of those reviews, InVocab the pieces in
	// the vocabulary, Sample the subsample measured (≤ InVocab).
	Words   int `json:"words"`
	InVocab int `json:"in_vocab"`
	Sample  int `json:"sample"`
	// Seed keys the subsample and every cell's draws.
	Seed uint64 `json:"seed"`
}

// LevelsRecord is one line of a levels results file: one mechanism at one
// preset level measured by levels.Measure on a LevelsText.
type LevelsRecord struct {
	Kind      string  `json:"kind"`
	Mechanism string  `json:"mechanism"`
	Level     string  `json:"level"`
	Epsilon   float64 `json:"epsilon"`
	// Tokens is how many tokens were privatized (once each).
	Tokens int `json:"tokens"`
	// Kept is the share released unchanged; Top1 and Top5 the attacker's
	// recovery rates, Baseline1 and Baseline5 those of guessing from
	// the prior alone. LowerBound: the attacker is a trained plug-in
	// (BRR), so Top1 and Top5 are lower bounds.
	Kept       Rate       `json:"kept"`
	Top1       Rate       `json:"top1"`
	Top5       Rate       `json:"top5"`
	Baseline1  Rate       `json:"baseline1"`
	Baseline5  Rate       `json:"baseline5"`
	LowerBound bool       `json:"lower_bound,omitempty"`
	Text       LevelsText `json:"text"`
}

// LevelsRecords turns levels.Measure's cells into records, in mechanism
// name order and levels strongest first, so that a file written from
// them is the same for the same cells.
func LevelsRecords(cells map[string]map[string]levels.Cell, text LevelsText) []LevelsRecord {
	names := make([]string, 0, len(cells))
	for n := range cells {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []LevelsRecord
	for _, n := range names {
		for _, l := range levels.Levels {
			c, ok := cells[n][l]
			if !ok {
				continue
			}
			out = append(out, LevelsRecord{Kind: LevelsKind, Mechanism: c.Mechanism, Level: c.Level, Epsilon: c.Epsilon,
				Tokens: c.Tokens, Kept: rateOf(c.Kept), Top1: rateOf(c.Top1), Top5: rateOf(c.Top5),
				Baseline1: rateOf(c.Baseline1), Baseline5: rateOf(c.Baseline5), LowerBound: c.LowerBound, Text: text})
		}
	}
	return out
}

// WriteLevels replaces the file at path with recs, one JSON line each.
func WriteLevels(path string, recs []LevelsRecord) error {
	var b []byte
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("write levels: %w", err)
		}
		b = append(append(b, line...), '\n')
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write levels: %w", err)
	}
	return nil
}

// ReadLevels reads a levels results file (a missing file has no records).
// Lines of another kind, a level outside levels.Levels, or rates outside
// [0, 1] are errors: the file is generated whole, never appended to, so
// a bad line is a wrong file, not a crash mid-write.
func ReadLevels(path string) ([]LevelsRecord, error) {
	recs, err := readLines[LevelsRecord](path)
	if err != nil {
		return nil, err
	}
	for i, r := range recs {
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", path, i+1, err)
		}
	}
	return recs, nil
}

func (r LevelsRecord) check() error {
	if r.Kind != LevelsKind {
		return fmt.Errorf("kind %q, want %q", r.Kind, LevelsKind)
	}
	if r.Mechanism == "" || !slices.Contains(levels.Levels, r.Level) {
		return fmt.Errorf("mechanism %q at level %q", r.Mechanism, r.Level)
	}
	if !(r.Epsilon > 0) || math.IsInf(r.Epsilon, 1) || r.Tokens < 1 {
		return fmt.Errorf("%s %s: ε %v over %d tokens", r.Mechanism, r.Level, r.Epsilon, r.Tokens)
	}
	for _, x := range []Rate{r.Kept, r.Top1, r.Top5, r.Baseline1, r.Baseline5} {
		if !(0 <= x.Lo && x.Lo <= x.Rate && x.Rate <= x.Hi && x.Hi <= 1) {
			return fmt.Errorf("%s %s: rate %+v outside [0, 1] or out of order", r.Mechanism, r.Level, x)
		}
	}
	return nil
}
