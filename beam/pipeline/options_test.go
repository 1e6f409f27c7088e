package pipeline

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// Every setting is validated before the run, at its edges: an error of
// category ErrInvalidOptions, never a run with a setting ignored.
func TestOptionsRefused(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	os.Mkdir(full, 0o755)
	os.WriteFile(filepath.Join(full, "old.jsonl"), []byte("x\n"), 0o644)
	ok := Options{Input: filepath.Join(dir, "*.jsonl"), Output: filepath.Join(dir, "out")}
	cases := []struct {
		name string
		edit func(*Options)
	}{
		{"no input", func(o *Options) { o.Input = " " }},
		{"no output", func(o *Options) { o.Output = "" }},
		{"output directory not empty", func(o *Options) { o.Output = full }},
		{"shards negative", func(o *Options) { o.Shards = -1 }},
		{"shards over 65536", func(o *Options) { o.Shards = 1<<16 + 1 }},
		{"parallelism negative", func(o *Options) { o.Parallelism = -1 }},
		{"parallelism over 1024", func(o *Options) { o.Parallelism = 1025 }},
		{"max record negative", func(o *Options) { o.MaxRecordBytes = -1 }},
		{"max record over 2^30", func(o *Options) { o.MaxRecordBytes = 1<<30 + 1 }},
		{"cap negative", func(o *Options) { o.Cap = -1 }},
		{"cap NaN", func(o *Options) { o.Cap = math.NaN() }},
		{"cap +Inf", func(o *Options) { o.Cap = math.Inf(1) }},
		{"cap words negative", func(o *Options) { o.CapWords = -1 }},
		{"cap words over 2^40", func(o *Options) { o.CapWords = 1<<40 + 1 }},
		{"cap and cap words", func(o *Options) { o.Cap, o.CapWords = 10, 10 }},
		{"unknown format", func(o *Options) { o.Format = "csv" }},
		{"unknown over-cap policy", func(o *Options) { o.OverCap = "keep" }},
		{"unknown mechanism", func(o *Options) { o.Engine.Mechanism = "santext+" }},
		{"tem (Euclidean lists, not offered) at a level", func(o *Options) { o.Engine.Mechanism = "tem" }},
		{"tem (Euclidean lists, not offered) at ε 10", func(o *Options) { o.Engine.Mechanism, o.Engine.Epsilon = "tem", 10 }},
		{"unknown level", func(o *Options) { o.Engine.Level = "medium" }},
		{"ε negative", func(o *Options) { o.Engine.Epsilon = -0.5 }},
		{"ε NaN", func(o *Options) { o.Engine.Epsilon = math.NaN() }},
		{"ε above 10^6", func(o *Options) { o.Engine.Epsilon = 2e6 }},
		{"missing asset file", func(o *Options) { o.Engine.AssetFile = filepath.Join(dir, "none.wva") }},
		{"cap with CusText (loss unknown)", func(o *Options) { o.Engine.Mechanism, o.Engine.Level, o.Cap = "custext", "light", 100 }},
		{"cap words with CusText", func(o *Options) { o.Engine.Mechanism, o.Engine.Level, o.CapWords = "custext", "light", 100 }},
		{"CusText at a level out of its reach", func(o *Options) { o.Engine.Mechanism = "custext" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := ok
			c.edit(&o)
			_, err := settle(o)
			if err == nil {
				err = checkOutputDir(t.Context(), o.Output)
			}
			if !errors.Is(err, ErrInvalidOptions) {
				t.Fatalf("got %v, want ErrInvalidOptions", err)
			}
			t.Log(err)
		})
	}
	// The control: the unedited options and the edges that are accepted.
	for _, edit := range []func(*Options){
		func(*Options) {},
		func(o *Options) { o.Shards, o.MaxRecordBytes, o.Parallelism = 1<<16, 1<<30, 1024 },
		func(o *Options) { o.Shards, o.MaxRecordBytes, o.Parallelism = 1, 1, 1 },
		func(o *Options) { o.CapWords = 1 << 40 },
		func(o *Options) { o.Cap = math.MaxFloat64 },
		func(o *Options) { o.Engine.Mechanism, o.Engine.Level = "custext", "light" }, // no cap: the loss may be unknown
	} {
		o := ok
		edit(&o)
		if _, err := settle(o); err != nil {
			t.Errorf("%+v refused: %v", o, err)
		}
	}
}
