package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/brrbound"
	"github.com/wordveil/wordveil/research/internal/eval/levels"
)

// The BRR bound's defaults: draws per level, each side's failure
// probability, the posterior cut and the results file.
const (
	brrBoundDraws   = 1 << 20
	brrBoundDelta   = 0.025
	brrBoundTau     = 1e-3
	brrBoundSeed    = 27
	brrBoundResults = "docs/eval/brr-bound.jsonl"
	// brrBoundTopK is the k of the second interval recorded: the top-k
	// column of `wordveil stats`.
	brrBoundTopK = 5
)

// brrBoundRecord is one line of the results file: one level's top-1
// interval (lo, hi) and top-5 interval.
type brrBoundRecord struct {
	Kind    string  `json:"kind"` // "brr-bound"
	Level   string  `json:"level"`
	Epsilon float64 `json:"epsilon"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	Fitted  float64 `json:"fitted"`
	PlugIn  float64 `json:"plug_in"`
	DevLo   float64 `json:"dev_lo"`
	DevHi   float64 `json:"dev_hi"`
	Tau     float64 `json:"tau"`
	Delta   float64 `json:"delta"`
	Draws   int     `json:"draws"`
	Pairs   int     `json:"pairs"`
	Columns int     `json:"columns"`
	// Top5 is the top-5 interval from the same draws; nil on lines
	// written before it was recorded (they are measured again).
	Top5        *brrBoundSide `json:"top5,omitempty"`
	Seed        uint64        `json:"seed"`
	Asset       string        `json:"asset"`
	AssetSHA256 string        `json:"asset_sha256"`
	Prior       string        `json:"prior"`
	Seconds     float64       `json:"seconds"`
	Command     string        `json:"command"`
}

// brrBoundSide is a top-k interval and the estimates behind it
// (brrbound.KBound).
type brrBoundSide struct {
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	Fitted float64 `json:"fitted"`
	PlugIn float64 `json:"plug_in"`
}

// same reports whether r was measured as the run at hand would measure
// level: then it is kept, not measured again.
func (r brrBoundRecord) same(o brrBoundRecord) bool {
	return r.Kind == o.Kind && r.Level == o.Level && r.Epsilon == o.Epsilon && r.Draws == o.Draws &&
		r.Tau == o.Tau && r.Delta == o.Delta && r.Seed == o.Seed && r.AssetSHA256 == o.AssetSHA256 && r.Prior == o.Prior
}

// evalBRRBound bounds the Bayes-optimal one-word attacker's top-1 and
// top-5 recovery against BRR at the embedded asset's presets from both sides
// (brrbound.Tight), for inputs drawn from the held-out text's tokens
// (the attacker knows their frequencies). Resumable: a level whose line
// in the results file was measured with the same asset, ε and flags is
// kept; the others are measured and the file rewritten.
func evalBRRBound(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil-research eval brrbound", flag.ContinueOnError)
	fs.SetOutput(stderr)
	results := fs.String("results", brrBoundResults, "results file (JSON lines; lines measured with the same flags and asset are kept)")
	cache := fs.String("typed-text", defaultCache(), "directory with the pinned typed-text and IMDB data (make typed-text, make eval-data)")
	draws := fs.Int("draws", brrBoundDraws, "draws per level (half fit the lower bound's attacker, half measure it)")
	delta := fs.Float64("delta", brrBoundDelta, "failure probability of each side")
	tau := fs.Float64("tau", brrBoundTau, "posteriors below it are not accumulated (added to the upper bound)")
	seed := fs.Uint64("seed", brrBoundSeed, "seed of the draws")
	workers := fs.Int("workers", 0, "parallel chunks (0: all cores)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	start := time.Now()
	a, err := wva.Default()
	if err != nil {
		return err
	}
	text, err := levels.HeldOut(*cache, a)
	if err != nil {
		return fmt.Errorf("%w (run 'make typed-text')", err)
	}
	prior, err := brrbound.Tokens(text.IDs, a.Len())
	if err != nil {
		return err
	}
	outs, err := mechanism.DefaultOutputs(a)
	if err != nil {
		return err
	}
	allowed := outs.Mask(a.Len())
	sum := a.SHA256()
	base := brrBoundRecord{Kind: "brr-bound", Tau: *tau, Delta: *delta, Draws: *draws, Seed: *seed,
		Asset: a.Header.Name, AssetSHA256: hex.EncodeToString(sum[:]),
		Prior: fmt.Sprintf("the held-out text's in-vocabulary tokens (nlp-corpus@4.4.0 builds/doc-0…29 as the levels' measurement reads it): %d tokens of %d distinct words", len(text.IDs), countPositive(prior))}
	old, err := readBRRBound(*results)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "eval brrbound: %d held-out tokens; data ready in %.1fs\n", len(text.IDs), time.Since(start).Seconds())
	var out []brrBoundRecord
	for _, level := range levels.Levels {
		eps, err := mechanism.Preset(a, mechanism.NameBRR, level)
		if err != nil {
			return err
		}
		r := base
		r.Level, r.Epsilon = level, eps
		r.Command = fmt.Sprintf("wordveil-research eval brrbound -draws %d -delta %g -tau %g -seed %d", *draws, *delta, *tau, *seed)
		if o, ok := findBRRBound(old, r); ok {
			fmt.Fprintf(stderr, "eval brrbound: %s kept from %s\n", level, *results)
			out = append(out, o)
			continue
		}
		t0 := time.Now()
		var key [32]byte
		binary.LittleEndian.PutUint64(key[:8], *seed)
		key = sha256.Sum256(append(key[:], "brrbound/"+level...))
		b, err := brrbound.Tight(brrbound.Setup{Codes: a.Codes, Allowed: allowed, Epsilon: eps, Prior: prior},
			brrbound.TightConfig{Draws: *draws, Delta: *delta, Tau: *tau, Workers: *workers, Key: key, TopK: brrBoundTopK})
		if err != nil {
			return err
		}
		r.Lo, r.Hi, r.Fitted, r.PlugIn, r.DevLo, r.DevHi = b.Lo, b.Hi, b.Fitted, b.PlugIn, b.DevLo, b.DevHi
		k := b.TopK[brrBoundTopK-1]
		r.Top5 = &brrBoundSide{Lo: k.Lo, Hi: k.Hi, Fitted: k.Fitted, PlugIn: k.PlugIn}
		r.Pairs, r.Columns, r.Seconds = b.Pairs, b.Columns, time.Since(t0).Seconds()
		fmt.Fprintf(stderr, "eval brrbound: %s (ε %.4f): top-1 [%.4f, %.4f] (fitted %.4f, plug-in %.4f), top-5 [%.4f, %.4f] (fitted %.4f, plug-in %.4f); %d pairs, in %s\n",
			level, eps, b.Lo, b.Hi, b.Fitted, b.PlugIn, k.Lo, k.Hi, k.Fitted, k.PlugIn, b.Pairs, time.Since(t0).Round(time.Second))
		out = append(out, r)
		// Written after every level, so that an interrupted run resumes.
		if err := writeBRRBound(*results, append(out, rest(old, out)...)); err != nil {
			return err
		}
	}
	return writeBRRBound(*results, out)
}

func countPositive(p []float64) int {
	n := 0
	for _, v := range p {
		if v > 0 {
			n++
		}
	}
	return n
}

// findBRRBound returns old's record measured as r would be, with its
// top-5 interval (a line without one predates it: measured again).
func findBRRBound(old []brrBoundRecord, r brrBoundRecord) (brrBoundRecord, bool) {
	for _, o := range old {
		if o.same(r) && o.Top5 != nil {
			return o, true
		}
	}
	return brrBoundRecord{}, false
}

// rest is old's records of levels out does not have yet.
func rest(old, out []brrBoundRecord) []brrBoundRecord {
	var r []brrBoundRecord
	for _, o := range old {
		found := false
		for _, n := range out {
			found = found || n.Level == o.Level
		}
		if !found {
			r = append(r, o)
		}
	}
	return r
}

func readBRRBound(path string) ([]brrBoundRecord, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []brrBoundRecord
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r brrBoundRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

func writeBRRBound(path string, recs []brrBoundRecord) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
