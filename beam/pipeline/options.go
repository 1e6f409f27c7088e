package pipeline

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/core"
)

// Engine is the privatizer every worker opens: the fields of
// core.Config that a bulk run may set. Workers receive it serialized,
// so it holds plain values only; each worker opens its own
// core.Privatizer from it (core.Open validates it, and Build opens
// one first so that a bad setting fails before the run starts). The
// zero value is the SDK's default: BRR at the Balanced level on the
// embedded asset.
type Engine struct {
	Mechanism            string  // "" means BRR
	Level                string  // "" means balanced; "" when Epsilon is set (both: an invalid setting)
	Epsilon              float64 // 0: Level's ε
	AllowSaturated       bool    // Config.AllowSaturatedEpsilon
	AllowExcludedOutputs bool    // Config.AllowExcludedOutputs
	AssetFile            string  // "" means the embedded asset; the path must be readable by every worker
	OOV                  string  // "" means random-word
	Placeholder          string  // with OOV placeholder
	Numbers              string  // "" means privatize
	PrivatizePunctuation bool
}

// Config is the core.Config e opens.
func (e Engine) Config() core.Config {
	return core.Config{
		Mechanism: core.Mechanism(e.Mechanism), Level: core.Level(e.Level), Epsilon: e.Epsilon,
		AllowSaturatedEpsilon: e.AllowSaturated, AllowExcludedOutputs: e.AllowExcludedOutputs,
		AssetFile: e.AssetFile, OOV: core.OOVPolicy(e.OOV), Placeholder: e.Placeholder,
		Numbers: core.NumberPolicy(e.Numbers), PrivatizePunctuation: e.PrivatizePunctuation,
	}
}

// What happens to a record over its user's cap. Either way it is never
// released, and it is counted in its user's summary.
const (
	OverCapDrop        = "drop"        // not written (the default)
	OverCapPlaceholder = "placeholder" // written with status "withheld" and Options.Placeholder as its text
)

// Limits of the settings.
const (
	// DefaultMaxRecordBytes bounds an input line (16 MiB, the SDK's
	// default bound on a text).
	DefaultMaxRecordBytes = 16 << 20
	// maxRecordBytes is the largest bound accepted: the SDK's (2^30).
	maxRecordBytes = 1 << 30
	// DefaultShards is how many files the budget summary (and the
	// state's generation) is written in; the records files are one per
	// segment of the input with a record to write.
	DefaultShards = 8
	// maxShards bounds Options.Shards.
	maxShards = 1 << 16
	// maxParallelism bounds Options.Parallelism.
	maxParallelism = 1024
)

// Options configure a run. Input, Output and, for caps, one of Cap and
// CapWords are what most runs set; the zero value of every other field is
// the default.
type Options struct {
	Input  string // a file glob (local paths, or any scheme a Beam file system is registered for)
	Format string // FormatJSONL (""), or FormatTSV
	Output string // the directory the output files are written in (created if need be)
	Shards int    // budget files (and state files), in [1, 65536] (0: DefaultShards)

	Engine Engine // the privatizer

	// Cap is each user's cap in the SDK's metric loss (ε·P_avg
	// per word, Accounting.UnitFree), over this run: 0 means none.
	Cap float64
	// CapWords is each user's cap in words at the engine's ε: exactly
	// this many words are granted (converted once, as the SDK converts
	// Caps.LifetimeWords, to (CapWords + ½)·ε·P_avg). At most one of Cap
	// and CapWords.
	CapWords int
	// OverCap is OverCapDrop ("") or OverCapPlaceholder.
	OverCap string
	// Placeholder is the text of a withheld record with OverCapPlaceholder
	// ("" means "•").
	Placeholder string

	// SkipMalformed counts and skips input lines that are not records (and
	// records over MaxRecordBytes) instead of failing the run on the first
	// one. Their text is never written anywhere.
	SkipMalformed bool
	// MaxRecordBytes bounds an input line, in [0, 2^30] (0:
	// DefaultMaxRecordBytes); a longer line is malformed.
	MaxRecordBytes int

	// Parallelism is how many goroutines privatize records in each
	// privatizing DoFn instance, each with its own Privatizer, in [0,
	// 1024] (0: the worker's cores, its GOMAXPROCS). Prism on one machine
	// hands a stage to one instance, so it needs them; a cluster runner
	// that already runs an instance per core is better served by 1.
	Parallelism int

	// State is the directory of each user's spending across runs (a
	// local path or any Beam file system's): read at the start of the
	// run, charged, and written as its next generation when the run
	// commits, so that the cap covers every run sharing it. "" (the
	// default): the cap holds within this run only.
	State string
	// StateKey is the operator's key file (local, at least 32 bytes) that
	// seals the state (HMAC-SHA256). When neither the state nor its
	// anchor exists yet and the file does not either, it is created with
	// 32 random bytes (mode 0600). Required with State.
	StateKey string
	// StateAnchor is the file that keeps the state's last committed
	// generation apart from the state ("" means StateKey + ".anchor"): it
	// is what tells an older copy of the state from the latest. Keep it
	// with the key, where the state's writers cannot write.
	StateAnchor string

	// Seed, if not 0, makes the run reproducible: EVALUATION ONLY. Each
	// record then draws from its own stream (RecordSeed), and anyone who
	// knows Seed can reproduce every draw. 0 (the default): crypto/rand.
	Seed uint64
}

// ErrInvalidOptions is the category of every error about Options.
var ErrInvalidOptions = errors.New("invalid options")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidOptions, fmt.Sprintf(format, args...))
}

// settled is Options validated, with defaults filled in and the cap in
// metric loss (capLoss, 0: none) worked out from the engine.
type settled struct {
	Options
	capLoss     float64
	wordCost    float64 // ε·P_avg of one word at the engine's ε, NaN when unknown
	stateAnchor string  // StateAnchor, or its default
}

// settle validates o, opening the engine once (so that a bad engine
// setting fails here, before any worker starts) to learn its cost per
// word.
func settle(o Options) (settled, error) {
	s := settled{Options: o}
	switch {
	case strings.TrimSpace(o.Input) == "":
		return s, invalid("no input glob")
	case strings.TrimSpace(o.Output) == "":
		return s, invalid("no output directory")
	case o.Shards < 0 || o.Shards > maxShards:
		return s, invalid("shards %d is outside [1, %d]", o.Shards, maxShards)
	case o.MaxRecordBytes < 0 || o.MaxRecordBytes > maxRecordBytes:
		return s, invalid("max record bytes %d is outside [1, %d]", o.MaxRecordBytes, maxRecordBytes)
	case o.Parallelism < 0 || o.Parallelism > maxParallelism:
		return s, invalid("parallelism %d is outside [1, %d]", o.Parallelism, maxParallelism)
	case o.Cap < 0 || math.IsNaN(o.Cap) || math.IsInf(o.Cap, 0):
		return s, invalid("cap %v is not a finite loss ≥ 0", o.Cap)
	case o.Cap > 0 && o.CapWords != 0:
		return s, invalid("a cap in loss (%v) and a cap in words (%d): give one", o.Cap, o.CapWords)
	case o.State != "" && o.StateKey == "":
		return s, invalid("a state (%s) needs its key file (-state-key)", o.State)
	case o.State == "" && (o.StateKey != "" || o.StateAnchor != ""):
		return s, invalid("a state key or anchor without a state directory (-state)")
	}
	if o.State != "" {
		s.stateAnchor = o.StateAnchor
		if s.stateAnchor == "" {
			s.stateAnchor = o.StateKey + ".anchor"
		}
		if isLocal(o.State) {
			st, _ := filepath.Abs(o.State)
			for _, f := range []string{o.StateKey, s.stateAnchor} {
				if a, _ := filepath.Abs(f); strings.HasPrefix(a, st+string(filepath.Separator)) {
					return s, invalid("%s is inside the state directory %s: a copy of the state would bring it back with it; keep it apart", f, o.State)
				}
			}
		}
	}
	if s.Format == "" {
		s.Format = FormatJSONL
	}
	if s.Format != FormatJSONL && s.Format != FormatTSV {
		return s, invalid("unknown input format %q (want %s or %s)", s.Format, FormatJSONL, FormatTSV)
	}
	if s.Shards == 0 {
		s.Shards = DefaultShards
	}
	if s.MaxRecordBytes == 0 {
		s.MaxRecordBytes = DefaultMaxRecordBytes
	}
	switch s.OverCap {
	case "":
		s.OverCap = OverCapDrop
	case OverCapDrop, OverCapPlaceholder:
	default:
		return s, invalid("unknown over-cap policy %q (want %s or %s)", s.OverCap, OverCapDrop, OverCapPlaceholder)
	}
	if s.Placeholder == "" {
		s.Placeholder = "•"
	}
	cfg := o.Engine.Config()
	cfg.MaxTextBytes = s.MaxRecordBytes
	p, err := core.Open(cfg)
	if err != nil {
		return s, fmt.Errorf("%w: the engine: %w", ErrInvalidOptions, err)
	}
	info := p.Info()
	s.wordCost = info.WordCost
	if err := p.Close(); err != nil {
		return s, err
	}
	s.capLoss = o.Cap
	if o.CapWords != 0 {
		if s.capLoss, err = core.WordCap(o.CapWords, s.wordCost); err != nil {
			return s, fmt.Errorf("%w: cap of %d words: %w", ErrInvalidOptions, o.CapWords, err)
		}
	}
	if s.capLoss > 0 && math.IsNaN(s.wordCost) {
		return s, invalid("a cap needs each record's loss, and mechanism %s's P_avg is not known on the device (its loss is unknown): use another mechanism or no cap", info.Mechanism)
	}
	if o.State != "" && math.IsNaN(s.wordCost) {
		return s, invalid("a state keeps each user's loss, and mechanism %s's P_avg is not known on the device (its loss is unknown): use another mechanism or no state", info.Mechanism)
	}
	return s, nil
}
