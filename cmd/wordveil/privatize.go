package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/linereader"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/progress"
)

const privatizeHelp = `Usage: wordveil privatize [flags] < text

Replaces every word of standard input with a word drawn from a metric-DP
mechanism and writes the result to standard output, line by line
(streaming). A word the asset has a stand-in for goes to the mechanism as
its nearest vocabulary word; a hyphenated word goes segment by segment.
Other words not in the vocabulary, numbers it lacks, e-mail addresses and
URLs are replaced by the OOV policy, never passed through. Lines that are already
available are privatized as one block: charged to the ledger once, and
written only after the charge is durable. A line over 1 MiB is
privatized, charged and written in parts of about 1 MiB cut between
words (with -json: one record, its text written part by part).

Blocks are privatized on every core (-threads N to choose, -threads 1
one at a time) and written in input order; a failed block ends the run
with nothing after it written. With -ledger or -memo blocks go one at a
time whatever -threads says, so that each block is charged, refused or
memoized exactly as in a sequential run. With -seed the output is the
same for every -threads. On a terminal, a long run shows its progress on
standard error.

With -json, each input line gives one JSON object (docs/CLI_JSON.md).

-memo and -ledger keep their state in directories; the memo key and the
rollback anchors live outside them, in -state. A memo or ledger directory
restored from an older copy or cut short is then an error, never a fresh
start, also when opened at another path or through a symlink, and a
ledger directory deleted whole and started afresh at the same path is
refused (its pin in -state names the old ledger). Not detected: the
anchors deleted as well (docs/STATE_FILES.md).

Caps are best given in words at a level: with -cap-words N or
-cap-period-words N exactly N fresh words at the main ε are granted (in
the lifetime, or in any -period) and the next is refused; memoized
repeats cost nothing. -cap and -cap-period give the cap in metric loss
(ε·P_avg per fresh word) instead, a figure that compares ε within one
mechanism but not across mechanisms (docs/TEXT_PRIVACY.md, "The unit of
a person's budget"). Keep one mechanism and level per ledger: a word
cap is converted at the mechanism and level given, so what was spent
counts differently at another.

With -class-epsilon, word classes get their own ε (docs/TEXT_PRIVACY.md,
"Per-class ε"): "rare" (vocabulary rank ≥ -rare-rank; a stand-in has its word's rank), "capitalized"
(Title or UPPER case) and "number"; a word in several classes gets the
smallest of their ε, a word in none the main ε.

Exit codes: 0 ok, 1 error, 2 usage, 3 budget exhausted, 130 interrupted
(nothing of an unfinished block is written). Every setting the wordveil
package refuses as an invalid configuration is a usage error (2): an ε
outside the mechanism's range, a -rare-rank beyond the vocabulary, an
-asset that is not a regular file or is too large, a -memo opened with
another mechanism or ε. A damaged asset, memo or ledger is an error (1).

Flags:
`

// privatizeFlags are the command's settings. They map to a
// core.Config (config), which Open validates: the checks here are
// only about the flags themselves.
type privatizeFlags struct {
	mechanism, preset string
	epsilon           float64
	allowSaturated    bool
	allOutputs        bool
	numbers           string
	oov, placeholder  string
	punct, asJSON     bool
	assetPath         string
	ledgerDir         string
	capLifetime       float64
	capPeriod         float64
	capWords          int
	capPeriodWords    int
	period            time.Duration
	memoDir           string
	memoKey           string
	stateDir          string
	maxLine           int
	seed              uint64
	threads           int
	classes           core.Classes // -class-epsilon and -rare-rank
}

func privatizeCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("wordveil privatize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, privatizeHelp)
		fs.PrintDefaults()
	}
	var f privatizeFlags
	fs.StringVar(&f.mechanism, "mechanism", string(core.BRR), fmt.Sprintf("mechanism: one of %v (1dt is TEM over precomputed neighbour lists)", mechanism.Offered()))
	fs.Float64Var(&f.epsilon, "epsilon", 0, "ε in the mechanism's metric, finite, > 0 and not below the mechanism's floor (docs/MECHANISMS.md, accepted ε range; overrides -preset)")
	fs.StringVar(&f.preset, "preset", string(core.Balanced), "privacy level: strong, balanced or light (docs/PRIVACY_LEVELS.md)")
	fs.BoolVar(&f.allowSaturated, "allow-saturated", false, "accept an ε so large that the output is almost surely the input (experiments only)")
	fs.StringVar(&f.numbers, "numbers", string(core.PrivatizeNumbers), "numbers the vocabulary has: privatize (like words) or replace (by the -oov policy, like every other number)")
	fs.BoolVar(&f.allOutputs, "all-outputs", false, "also release the words on the asset's exclusion list (offensive words); by default they are never output")
	fs.StringVar(&f.oov, "oov", string(core.RandomWord), "out-of-vocabulary policy: random-word or placeholder")
	fs.StringVar(&f.placeholder, "placeholder", privatize.DefaultPlaceholder, "replacement for -oov placeholder")
	fs.BoolVar(&f.punct, "punct", false, "privatize punctuation too (each mark becomes a uniformly random one)")
	fs.BoolVar(&f.asJSON, "json", false, "write one JSON object per line: the text and its privacy accounting (docs/CLI_JSON.md)")
	fs.StringVar(&f.assetPath, "asset", "", "asset file (default: the embedded English asset)")
	fs.StringVar(&f.ledgerDir, "ledger", "", "charge a privacy budget kept in this directory")
	fs.Float64Var(&f.capLifetime, "cap", 0, "with -ledger: lifetime cap in metric loss ε·P_avg, which does not compare across mechanisms: prefer -cap-words (0 = none)")
	fs.Float64Var(&f.capPeriod, "cap-period", 0, "with -ledger: cap per -period (0 = none)")
	fs.IntVar(&f.capWords, "cap-words", 0, "with -ledger: lifetime cap in words: exactly N fresh words at the main ε, converted to metric loss at this mechanism and level (0 = none; not with -cap)")
	fs.IntVar(&f.capPeriodWords, "cap-period-words", 0, "with -ledger: cap in words per -period (0 = none; not with -cap-period)")
	fs.DurationVar(&f.period, "period", 24*time.Hour, "with -ledger -cap-period or -cap-period-words: the rolling window")
	fs.StringVar(&f.memoDir, "memo", "", "keep a permanent response per word in this directory (docs/TEXT_PRIVACY.md)")
	fs.StringVar(&f.memoKey, "memo-key", "", "with -memo: the 32-byte key file sealing the memo, outside DIR (default: in -state, created 0600)")
	fs.StringVar(&f.stateDir, "state", "", "with -memo or -ledger: where the memo key and the rollback anchors are kept, outside the memo and ledger directories (default $XDG_CONFIG_HOME/wordveil)")
	fs.IntVar(&f.maxLine, "max-line", privatize.DefaultMaxTextBytes, "longest input line in bytes; a longer line is an error, read no further")
	fs.Uint64Var(&f.seed, "seed", 0, "EVALUATION ONLY: seed the randomness so output is reproducible (0 = secure randomness); the same for every -threads")
	fs.IntVar(&f.threads, "threads", min(runtime.GOMAXPROCS(0), maxThreads), fmt.Sprintf("blocks privatized at once, in [1, %d], by default one per core; output stays in input order; with -ledger or -memo blocks go one at a time", maxThreads))
	fs.Func("class-epsilon", "per-class ε in the mechanism's metric, e.g. rare=0.3,capitalized=0.5,number=1 (classes: rare, capitalized, number)", func(v string) error {
		c, err := parseClassEpsilon(v)
		f.classes.Rare, f.classes.Capitalized, f.classes.Number = c.Rare, c.Capitalized, c.Number
		return err
	})
	fs.IntVar(&f.classes.RareRank, "rare-rank", 0, "with -class-epsilon rare=...: words of vocabulary rank ≥ this are rare (ranks count from 0, most frequent first)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := setFlags(fs)
	if err := f.validate(fs, set); err != nil {
		return err
	}
	cfg, err := f.config(set)
	if err != nil {
		return err
	}
	p, err := core.Open(cfg)
	if err != nil {
		where := ""
		if errors.Is(err, core.ErrCorruptAsset) && f.assetPath != "" {
			where = "asset " + f.assetPath // not every asset error names the file
		}
		return fromRoot(err, where)
	}
	// Closes the memo and the ledger on every way out; a failure to close
	// is reported unless an earlier error already is.
	defer func() {
		if cerr := p.Close(); err == nil && cerr != nil {
			err = fromRoot(cerr, "")
		}
	}()
	// No forced collection after the open: the garbage it leaves is
	// reused by the stream's allocations (and returned to the OS by the
	// runtime's scavenger over time), while a forced collection handing it
	// back first cost 2–6 ms of one core before any block started and did
	// not lower the peak RSS (reached while opening; docs/BENCHMARKS.md).
	if f.seed != 0 {
		fmt.Fprintln(stderr, "wordveil: WARNING: -seed makes the output reproducible by anyone who knows the seed; use it for evaluation only, never on real data")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	enc := recordEncoder{json: f.asJSON}
	if f.asJSON {
		// Only the records name the asset: Info hashes the whole asset
		// file (a few milliseconds before the first block), so plain text
		// does without.
		enc.info = p.Info()
	}
	// Unseeded, every draw is fresh whatever the blocks: they are cut in
	// parts so that the run's last blocks keep every core busy. Seeded,
	// block i draws block i's stream, so blocks stay whole.
	part := 0
	if f.seed == 0 {
		part = partLines
	}
	return stream(ctx, privatizeBlocks(p, f.seed), f.blockThreads(), part, linereader.New(stdin, f.maxLine), stdout, enc, inputBar(stdin, stdout, stderr))
}

// blockThreads is how many blocks are privatized at once: -threads, but
// one at a time with a ledger or a memo. A block's charge and its memo's
// responses depend on every block before it (what the cap has left, which
// words the memo already holds), so they are decided in input order, each
// block charged only after the one before it is written: exactly what a
// sequential run charges, refuses and releases.
func (f *privatizeFlags) blockThreads() int {
	if f.ledgerDir != "" || f.memoDir != "" {
		return 1
	}
	return f.threads
}

// inputBar is privatize's progress on a terminal: in bytes of standard
// input, of the file's size when it is a regular file (else unknown). It is nil (silent)
// unless stderr is a terminal and standard output is not (a bar would be
// drawn over the output), and draws nothing for the first second.
func inputBar(stdin io.Reader, stdout, stderr io.Writer) *progress.Bar {
	if progress.IsTerminal(stdout) {
		return nil
	}
	total := 0
	if f, ok := stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() <= math.MaxInt32 {
			total = int(st.Size()) // larger: unknown (the count is an int on 32-bit too)
		}
	}
	return progress.NewTerminal(stderr, "privatize (bytes)", total, time.Second)
}

// validate checks what is about the flags themselves, not the settings
// they carry (package core checks those, once, in Open): arguments,
// flags that only mean something beside another, a 0 that would read as
// "not set", and where the state files go.
func (f *privatizeFlags) validate(fs *flag.FlagSet, set map[string]bool) error {
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("%w: privatize reads standard input and takes no arguments", errUsage)
	case f.ledgerDir == "" && (set["cap"] || set["cap-period"] || set["cap-words"] || set["cap-period-words"] || set["period"]):
		// Flags that mean something only beside -ledger, even when 0.
		return fmt.Errorf("%w: -cap, -cap-period, -cap-words, -cap-period-words and -period need -ledger (without it nothing is capped)", errUsage)
	case set["cap"] && set["cap-words"]:
		return fmt.Errorf("%w: -cap and -cap-words both cap the lifetime: give one", errUsage)
	case set["cap-period"] && set["cap-period-words"]:
		return fmt.Errorf("%w: -cap-period and -cap-period-words both cap the period: give one", errUsage)
	case set["epsilon"] && set["preset"]:
		// Config's Level and Epsilon: one or the other, never both.
		return fmt.Errorf("%w: -preset and -epsilon both set the privacy: give one", errUsage)
	case set["epsilon"] && f.epsilon == 0:
		// Config.Epsilon 0 means "use the level": say so, not run at -preset.
		return fmt.Errorf("%w: -epsilon 0: give an ε > 0, or omit -epsilon to use -preset", errUsage)
	case (f.capPeriod > 0 || f.capPeriodWords > 0) && f.period <= 0:
		// Config.Caps.Period 0 means 24 hours: a zero -period must not.
		return fmt.Errorf("%w: -cap-period and -cap-period-words need a positive -period", errUsage)
	case f.memoDir == "" && set["memo-key"]:
		return fmt.Errorf("%w: -memo-key needs -memo", errUsage)
	case f.memoDir == "" && f.ledgerDir == "" && set["state"]:
		return fmt.Errorf("%w: -state needs -memo or -ledger", errUsage)
	case f.memoKey != "" && within(f.memoKey, f.memoDir):
		return fmt.Errorf("%w: -memo-key must be outside the memo directory (a copy of the directory would carry its key)", errUsage)
	case f.stateDir != "" && (f.memoDir != "" && within(f.stateDir, f.memoDir) || f.ledgerDir != "" && within(f.stateDir, f.ledgerDir)):
		return fmt.Errorf("%w: -state must be outside the memo and ledger directories (a restore of those must not restore their anchors)", errUsage)
	case f.threads < 1 || f.threads > maxThreads:
		return fmt.Errorf("%w: -threads %d: must be in [1, %d]", errUsage, f.threads, maxThreads)
	case f.maxLine < 1:
		// Config.MaxTextBytes 0 means 16 MiB, but the line reader needs
		// the bound itself.
		return fmt.Errorf("%w: -max-line %d: must be ≥ 1", errUsage, f.maxLine)
	case set["rare-rank"] && f.classes.Rare == 0:
		return fmt.Errorf("%w: -rare-rank needs -class-epsilon rare=ε", errUsage)
	}
	return nil
}

// config is the core.Config the flags say, with the memo's secret read
// from (or created in) its key file and the anchors kept in the state
// directory.
func (f *privatizeFlags) config(set map[string]bool) (core.Config, error) {
	cfg := core.Config{
		Mechanism: core.Mechanism(f.mechanism), Level: core.Level(f.preset), Epsilon: f.epsilon,
		AllowSaturatedEpsilon: f.allowSaturated, AllowExcludedOutputs: f.allOutputs, AssetFile: f.assetPath,
		Classes: f.classes, OOV: core.OOVPolicy(f.oov), Placeholder: f.placeholder,
		Numbers: core.NumberPolicy(f.numbers), PrivatizePunctuation: f.punct, MaxTextBytes: f.maxLine,
		LedgerDir: f.ledgerDir, MemoDir: f.memoDir,
		Caps: core.Caps{Lifetime: f.capLifetime, PerPeriod: f.capPeriod, LifetimeWords: f.capWords, PerPeriodWords: f.capPeriodWords},
	}
	if set["epsilon"] {
		// -preset's default names the level that -epsilon replaces.
		cfg.Level = ""
	}
	if set["period"] {
		// Only when given: the flag's default is the Config's (0: 24
		// hours).
		cfg.Caps.Period = f.period
	}
	if f.ledgerDir == "" && f.memoDir == "" {
		return cfg, nil
	}
	home, err := stateHome(f.stateDir)
	if err != nil {
		return cfg, err
	}
	// The default state directory too (XDG_CONFIG_HOME), symlinks
	// resolved: a restore of the directory must not restore its anchors.
	if f.memoDir != "" && within(home, f.memoDir) || f.ledgerDir != "" && within(home, f.ledgerDir) {
		return cfg, fmt.Errorf("%w: the state directory %s must be outside the memo and ledger directories (a restore of those must not restore their anchors): set -state", errUsage, home)
	}
	cfg.Anchor = stateAnchor(home)
	if f.ledgerDir != "" {
		if err := migratePin(home, f.ledgerDir); err != nil {
			return cfg, err
		}
	}
	if f.memoDir != "" {
		keyPath := f.memoKey
		if keyPath == "" {
			if keyPath, err = defaultMemoKeyPath(home, f.memoDir); err != nil {
				return cfg, err
			}
		}
		if cfg.MemoSecret, err = memoSecret(keyPath); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// parseClassEpsilon parses -class-epsilon: comma-separated class=ε pairs,
// each class (rare, capitalized, number) at most once, each ε a number
// other than 0 (in a core.Classes, 0 means the class is not set).
// Whether an ε is in range is Open's to say. RareRank is left 0 (it has
// its own flag). It looks at each byte a bounded number of times.
func parseClassEpsilon(s string) (core.Classes, error) {
	var c core.Classes
	if s == "" {
		return c, fmt.Errorf("%w: -class-epsilon is empty (want e.g. rare=0.3,capitalized=0.5)", errUsage)
	}
	for _, pair := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(pair, "=")
		if !ok {
			return core.Classes{}, fmt.Errorf("%w: -class-epsilon %q: want class=ε", errUsage, pair)
		}
		var dst *float64
		switch strings.TrimSpace(name) {
		case privatize.ClassRare:
			dst = &c.Rare
		case privatize.ClassCapitalized:
			dst = &c.Capitalized
		case privatize.ClassNumber:
			dst = &c.Number
		default:
			return core.Classes{}, fmt.Errorf("%w: -class-epsilon: unknown class %q (want %s, %s or %s)", errUsage,
				name, privatize.ClassRare, privatize.ClassCapitalized, privatize.ClassNumber)
		}
		if *dst != 0 {
			return core.Classes{}, fmt.Errorf("%w: -class-epsilon: class %s given twice", errUsage, name)
		}
		eps, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		switch {
		case err != nil:
			return core.Classes{}, fmt.Errorf("%w: -class-epsilon %s=%q: not a number", errUsage, name, val)
		case eps == 0:
			return core.Classes{}, fmt.Errorf("%w: -class-epsilon %s=%q: give an ε > 0, or leave the class out", errUsage, name, val)
		}
		*dst = eps
	}
	return c, nil
}
