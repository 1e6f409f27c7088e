package ctxattack

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/wordveil/wordveil/research/internal/eval/levels"
)

// Kind is the Kind of a Record.
const Kind = "context"

// Run says what a measurement ran on: the same for every record of a
// file.
type Run struct {
	Asset       string `json:"asset"`
	AssetSHA256 string `json:"asset_sha256"`
	// HeldOut describes the evaluated text, LMText the LM's training
	// text, and LMBigrams how many bigrams it counted.
	HeldOut string `json:"held_out"`
	LMText  string `json:"lm_text"`
	Seed    uint64 `json:"seed"`
	Command string `json:"command"`
}

// Record is one cell of a results file, one JSON object a line.
type Record struct {
	Kind string `json:"kind"`
	Cell
	Run Run `json:"run"`
}

// Write replaces path with the cells' records.
func Write(path string, cells []Cell, run Run) error {
	var b []byte
	for _, c := range cells {
		line, err := json.Marshal(Record{Kind: Kind, Cell: c, Run: run})
		if err != nil {
			return fmt.Errorf("ctxattack: write %s: %w", path, err)
		}
		b = append(append(b, line...), '\n')
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("ctxattack: %w", err)
	}
	return nil
}

// Read reads a results file. Another kind, a level outside
// levels.Levels, rates outside their range, records of different runs
// or a cell measured twice are errors: the file is written whole.
func Read(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ctxattack: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var out []Record
	seen := map[[2]string]bool{}
	for line := 1; sc.Scan(); line++ {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%w: %s:%d: %v", ErrInvalid, path, line, err)
		}
		if err := r.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if len(out) > 0 && r.Run != out[0].Run {
			return nil, fmt.Errorf("%w: %s:%d: a record of another run", ErrInvalid, path, line)
		}
		id := [2]string{r.Mechanism, r.Level}
		if seen[id] {
			return nil, fmt.Errorf("%w: %s:%d: %s %s measured twice", ErrInvalid, path, line, r.Mechanism, r.Level)
		}
		seen[id] = true
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ctxattack: %s: %w", path, err)
	}
	return out, nil
}

func (r Record) check() error {
	if r.Kind != Kind {
		return fmt.Errorf("%w: kind %q, want %q", ErrInvalid, r.Kind, Kind)
	}
	if !slices.Contains(levels.Levels, r.Level) || r.Mechanism == "" || r.Tokens < 1 || r.K < 1 {
		return fmt.Errorf("%w: mechanism %q level %q, %d tokens, k %d", ErrInvalid, r.Mechanism, r.Level, r.Tokens, r.K)
	}
	for _, x := range []Rate{r.Kept, r.OneWord, r.Context, r.PerWord, r.InCandidates} {
		if !(0 <= x.Lo && x.Lo <= x.Rate && x.Rate <= x.Hi && x.Hi <= 1) {
			return fmt.Errorf("%w: rate %+v", ErrInvalid, x)
		}
	}
	for _, g := range []Rate{r.Gain, r.PerWordGain} {
		if !(-1 <= g.Lo && g.Lo <= g.Rate && g.Rate <= g.Hi && g.Hi <= 1) {
			return fmt.Errorf("%w: gain %+v", ErrInvalid, g)
		}
	}
	return nil
}
