package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/linereader"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/internal/wva"
)

// Block limits: lines already at hand are privatized, charged and written
// together, so the ledger is charged (and fsync'd) once per block rather
// than once per line.
const (
	blockLines = 4096
	blockBytes = 1 << 20
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

With -json, each input line gives one JSON object (docs/CLI_JSON.md).

-memo and -ledger keep their state in directories; the memo key and the
rollback anchors live outside them, in -state. A memo or ledger directory
restored from an older copy or cut short is then an error, never a fresh
start, also when opened at another path or through a symlink, and a
ledger directory deleted whole and started afresh at the same path is
refused (its pin in -state names the old ledger). Not detected: the
anchors deleted as well (docs/STATE_FILES.md).

With -class-epsilon, word classes get their own ε (docs/TEXT_PRIVACY.md,
"Per-class ε"): "rare" (vocabulary rank ≥ -rare-rank; a stand-in has its word's rank), "capitalized"
(Title or UPPER case) and "number"; a word in several classes gets the
smallest of their ε, a word in none the main ε.

Exit codes: 0 ok, 1 error, 2 usage, 3 budget exhausted, 130 interrupted
(nothing of an unfinished block is written).

Flags:
`

// privatizeFlags are the command's settings.
type privatizeFlags struct {
	spec             mechanismSpec
	allowSaturated   bool
	allOutputs       bool
	numbers          string
	oov, placeholder string
	punct, asJSON    bool
	assetPath        string
	ledgerDir        string
	capLifetime      float64
	capPeriod        float64
	period           time.Duration
	memoDir          string
	memoKey          string
	stateDir         string
	maxLine          int
	seed             uint64
	classes          privatize.Classes // -class-epsilon and -rare-rank
	classesSet       bool
}

func privatizeCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("wordveil privatize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, privatizeHelp)
		fs.PrintDefaults()
	}
	var f privatizeFlags
	fs.StringVar(&f.spec.Name, "mechanism", mechanism.NameBRR, fmt.Sprintf("mechanism: one of %v", mechanism.Names()))
	fs.Float64Var(&f.spec.Epsilon, "epsilon", 0, "ε in the mechanism's metric, finite, > 0 and not below the mechanism's floor (docs/MECHANISMS.md, accepted ε range; overrides -preset)")
	fs.StringVar(&f.spec.Preset, "preset", mechanism.LevelBalanced, "privacy level: strong, balanced or light (docs/PRIVACY_LEVELS.md)")
	fs.BoolVar(&f.allowSaturated, "allow-saturated", false, "accept an ε so large that the output is almost surely the input (experiments only)")
	fs.StringVar(&f.numbers, "numbers", privatize.NumbersPrivatize, "numbers the vocabulary has: privatize (like words) or replace (by the -oov policy, like every other number)")
	fs.BoolVar(&f.allOutputs, "all-outputs", false, "also release the words on the asset's exclusion list (offensive words); by default they are never output")
	fs.StringVar(&f.oov, "oov", privatize.OOVRandomWord, "out-of-vocabulary policy: random-word or placeholder")
	fs.StringVar(&f.placeholder, "placeholder", privatize.DefaultPlaceholder, "replacement for -oov placeholder")
	fs.BoolVar(&f.punct, "punct", false, "privatize punctuation too (each mark becomes a uniformly random one)")
	fs.BoolVar(&f.asJSON, "json", false, "write one JSON object per line: the text and its privacy accounting (docs/CLI_JSON.md)")
	fs.StringVar(&f.assetPath, "asset", "", "asset file (default: the embedded English asset)")
	fs.StringVar(&f.ledgerDir, "ledger", "", "charge a privacy budget kept in this directory")
	fs.Float64Var(&f.capLifetime, "cap", 0, "with -ledger: lifetime cap in unit-free loss ε·P_avg (0 = none)")
	fs.Float64Var(&f.capPeriod, "cap-period", 0, "with -ledger: cap per -period (0 = none)")
	fs.DurationVar(&f.period, "period", 24*time.Hour, "with -ledger -cap-period: the rolling window")
	fs.StringVar(&f.memoDir, "memo", "", "keep a permanent response per word in this directory (docs/TEXT_PRIVACY.md)")
	fs.StringVar(&f.memoKey, "memo-key", "", "with -memo: the 32-byte key file sealing the memo, outside DIR (default: in -state, created 0600)")
	fs.StringVar(&f.stateDir, "state", "", "with -memo or -ledger: where the memo key and the rollback anchors are kept, outside the memo and ledger directories (default $XDG_CONFIG_HOME/wordveil)")
	fs.IntVar(&f.maxLine, "max-line", privatize.DefaultMaxTextBytes, "longest input line in bytes; a longer line is an error, read no further")
	fs.Uint64Var(&f.seed, "seed", 0, "EVALUATION ONLY: seed the randomness so output is reproducible (0 = secure randomness)")
	fs.Func("class-epsilon", "per-class ε in the mechanism's metric, e.g. rare=0.3,capitalized=0.5,number=1 (classes: rare, capitalized, number)", func(v string) error {
		c, err := parseClassEpsilon(v)
		f.classes.Rare, f.classes.Capitalized, f.classes.Number = c.Rare, c.Capitalized, c.Number
		f.classesSet = true
		return err
	})
	fs.IntVar(&f.classes.RareRank, "rare-rank", 0, "with -class-epsilon rare=...: words of vocabulary rank ≥ this are rare (ranks count from 0, most frequent first)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := f.validate(fs); err != nil {
		return err
	}
	a, err := loadAsset(f.assetPath)
	if err != nil {
		return err
	}
	m, eps, err := f.spec.build(a, buildOptions{allowSaturated: f.allowSaturated, allOutputs: f.allOutputs})
	if err != nil {
		return err
	}
	p, err := f.privatizer(m, eps, a)
	if err != nil {
		return err
	}
	// Closes the memo and the ledger on every way out; a failure to close
	// is reported unless an earlier error already is.
	defer func() {
		if cerr := p.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	// Decoding the asset leaves ~20 MB of garbage; return it before the
	// stream, whose line buffer may grow to -max-line.
	debug.FreeOSMemory()
	var src rand.Source = mechanism.NewSecureSource()
	if f.seed != 0 {
		fmt.Fprintln(stderr, "wordveil: WARNING: -seed makes the output reproducible by anyone who knows the seed; use it for evaluation only, never on real data")
		var k [32]byte
		binary.LittleEndian.PutUint64(k[:], f.seed)
		src = mechanism.NewSeededSourceForEvaluation(k)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	enc := recordEncoder{asset: a, json: f.asJSON}
	return stream(ctx, p, src, linereader.New(stdin, f.maxLine), stdout, enc)
}

// validate checks the flags that need no asset: every numeric setting, and
// flags that only mean something beside another.
func (f *privatizeFlags) validate(fs *flag.FlagSet) error {
	set := setFlags(fs)
	bad := func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) || x < 0 }
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("%w: privatize reads standard input and takes no arguments", errUsage)
	case set["epsilon"] && !(f.spec.Epsilon > 0 && f.spec.Epsilon <= mechanism.MaxEpsilon):
		return fmt.Errorf("%w: -epsilon %v: must be a finite number in (0, %g]; omit it to use -preset", errUsage, f.spec.Epsilon, float64(mechanism.MaxEpsilon))
	case f.ledgerDir == "" && (set["cap"] || set["cap-period"] || set["period"]):
		return fmt.Errorf("%w: -cap, -cap-period and -period need -ledger (without it nothing is capped)", errUsage)
	case bad(f.capLifetime) || bad(f.capPeriod):
		return fmt.Errorf("%w: -cap and -cap-period must be finite and ≥ 0", errUsage)
	case f.capPeriod > 0 && f.period <= 0:
		return fmt.Errorf("%w: -cap-period needs a positive -period", errUsage)
	case f.memoDir == "" && set["memo-key"]:
		return fmt.Errorf("%w: -memo-key needs -memo", errUsage)
	case f.memoDir == "" && f.ledgerDir == "" && set["state"]:
		return fmt.Errorf("%w: -state needs -memo or -ledger", errUsage)
	case f.memoKey != "" && within(f.memoKey, f.memoDir):
		return fmt.Errorf("%w: -memo-key must be outside the memo directory (a copy of the directory would carry its key)", errUsage)
	case f.stateDir != "" && (f.memoDir != "" && within(f.stateDir, f.memoDir) || f.ledgerDir != "" && within(f.stateDir, f.ledgerDir)):
		return fmt.Errorf("%w: -state must be outside the memo and ledger directories (a restore of those must not restore their anchors)", errUsage)
	case f.maxLine < 1 || f.maxLine > privatize.MaxTextBytesLimit:
		return fmt.Errorf("%w: -max-line %d not in [1, %d]", errUsage, f.maxLine, privatize.MaxTextBytesLimit)
	case set["rare-rank"] && f.classes.Rare == 0:
		return fmt.Errorf("%w: -rare-rank needs -class-epsilon rare=ε", errUsage)
	case f.classes.Rare != 0 && f.classes.RareRank < 1:
		return fmt.Errorf("%w: -class-epsilon rare=ε needs -rare-rank ≥ 1", errUsage)
	}
	return nil
}

// parseClassEpsilon parses -class-epsilon: comma-separated class=ε pairs,
// each class (rare, capitalized, number) at most once, each ε finite and
// in (0, mechanism.MaxEpsilon]. RareRank is left 0 (it has its own flag).
// It looks at each byte a bounded number of times.
func parseClassEpsilon(s string) (privatize.Classes, error) {
	var c privatize.Classes
	if s == "" {
		return c, fmt.Errorf("%w: -class-epsilon is empty (want e.g. rare=0.3,capitalized=0.5)", errUsage)
	}
	for _, pair := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(pair, "=")
		if !ok {
			return privatize.Classes{}, fmt.Errorf("%w: -class-epsilon %q: want class=ε", errUsage, pair)
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
			return privatize.Classes{}, fmt.Errorf("%w: -class-epsilon: unknown class %q (want %s, %s or %s)", errUsage,
				name, privatize.ClassRare, privatize.ClassCapitalized, privatize.ClassNumber)
		}
		if *dst != 0 {
			return privatize.Classes{}, fmt.Errorf("%w: -class-epsilon: class %s given twice", errUsage, name)
		}
		eps, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || !(eps > 0 && eps <= mechanism.MaxEpsilon) {
			return privatize.Classes{}, fmt.Errorf("%w: -class-epsilon %s=%q: must be a finite number in (0, %g]", errUsage,
				name, val, float64(mechanism.MaxEpsilon))
		}
		*dst = eps
	}
	return c, nil
}

// privatizer opens the ledger and the memo the flags name and wraps m (at
// ε eps); with -class-epsilon it builds the class mechanisms too, with m's
// output vocabulary.
func (f *privatizeFlags) privatizer(m mechanism.Mechanism, eps float64, a *wva.Asset) (_ *privatize.Privatizer, err error) {
	if f.memoDir != "" && f.classesSet && !f.classes.AtEpsilon(eps) {
		// Checked before the memo is opened (and maybe created).
		return nil, fmt.Errorf("%w: -memo keeps one response per word at one ε: it cannot serve -class-epsilon at other ε than %v", errUsage, eps)
	}
	opt := privatize.Options{OOV: f.oov, Placeholder: f.placeholder, PrivatizePunctuation: f.punct, MaxTextBytes: f.maxLine, Numbers: f.numbers}
	// Until a privatizer owns them, a failure closes what was opened.
	defer func() {
		if err != nil {
			_ = opt.Memo.Close()
			_ = opt.Ledger.Close()
		}
	}()
	var home string
	if f.ledgerDir != "" || f.memoDir != "" {
		var err error
		if home, err = stateHome(f.stateDir); err != nil {
			return nil, err
		}
		// The default state directory too (XDG_CONFIG_HOME), symlinks
		// resolved: a restore of the directory must not restore its anchors.
		if f.memoDir != "" && within(home, f.memoDir) || f.ledgerDir != "" && within(home, f.ledgerDir) {
			return nil, fmt.Errorf("%w: the state directory %s must be outside the memo and ledger directories (a restore of those must not restore their anchors): set -state", errUsage, home)
		}
	}
	if f.ledgerDir != "" {
		anchor, err := ledgerAnchor(home, f.ledgerDir)
		if err != nil {
			return nil, err
		}
		l, err := ledger.OpenWith(f.ledgerDir, ledger.Caps{Lifetime: f.capLifetime, PerPeriod: f.capPeriod, Period: f.period}, ledger.Options{Anchor: anchor})
		if errors.Is(err, ledger.ErrInvalid) {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if err != nil {
			return nil, err
		}
		opt.Ledger = l
	}
	if f.memoDir != "" {
		keyPath, err := f.memoKey, error(nil)
		if keyPath == "" {
			if keyPath, err = defaultMemoKeyPath(home, f.memoDir); err != nil {
				return nil, err
			}
		}
		secret, err := memoSecret(keyPath)
		if err != nil {
			return nil, err
		}
		if opt.Memo, err = memo.OpenWith(f.memoDir, privatize.MemoIdentity(m, a), secret, memo.Options{Anchor: fileAnchor{anchorDir(home)}}); err != nil {
			return nil, err
		}
	}
	if !f.classesSet {
		p, err := privatize.New(m, a, opt)
		if errors.Is(err, privatize.ErrOOVPolicy) || errors.Is(err, privatize.ErrNoUnitLoss) || errors.Is(err, privatize.ErrNumbers) {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		return p, err
	}
	p, err := privatize.NewWithClasses(m, a, f.classes, mechanism.Options{AllowSaturated: f.allowSaturated}, opt)
	for _, usage := range []error{privatize.ErrOOVPolicy, privatize.ErrNoUnitLoss, privatize.ErrNumbers, privatize.ErrInvalid,
		privatize.ErrMemoMismatch, mechanism.ErrInvalidEpsilon, mechanism.ErrEpsilonSaturated} {
		if errors.Is(err, usage) {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
	}
	return p, err
}

// block is a group of input texts — lines, or parts of a long line — or
// the error that ended the input.
type block struct {
	lines       []string
	first, last int   // numbers (from 1) of the lines lines[0] and the last text belong to
	err         error // io.EOF at the end
	errLine     int   // the number of the line err concerns
}

// readBlocks reads lines into blocks: a block takes every line that is
// already available (up to blockLines and blockBytes), so a pipe is
// charged per block while an interactive user gets each line back at once.
// With cut, a line longer than blockBytes is cut between tokens
// (tokenize.Split) into parts of about blockBytes, each privatized, charged
// and written as a block of its own: memory then follows blockBytes, not
// the line (whose output can be 7 times its size), and the output is the
// same text as the line's would be. It runs in its own goroutine so that a
// signal is seen while a read blocks.
func readBlocks(ctx context.Context, r *linereader.Reader, out chan<- block, cut bool) {
	defer close(out)
	var pending []string // the parts of the current line not yet in a block
	var rerr error       // the reader's error, passed on once pending is empty
	line := 1            // the number of the line pending (or the next line read) belongs to
	for {
		b := block{first: line, last: line}
		size := 0
		for {
			if len(pending) == 0 && rerr == nil {
				l, err := r.ReadLine()
				if l != "" {
					pending = splitLine(l, cut)
				}
				rerr = err
			}
			for len(pending) > 0 && size < blockBytes {
				b.lines = append(b.lines, pending[0])
				size += len(pending[0])
				b.last = line
				if pending = pending[1:]; len(pending) == 0 {
					line++
				}
			}
			if len(pending) > 0 {
				break // a long line goes on in the next block
			}
			if rerr != nil {
				b.err, b.errLine = rerr, line
				break
			}
			if len(b.lines) >= blockLines || size >= blockBytes || !r.Buffered() {
				break
			}
		}
		select {
		case out <- b:
		case <-ctx.Done():
			return
		}
		if b.err != nil {
			return
		}
	}
}

// splitLine returns the parts a line is privatized in: the line itself,
// or with cut and a line over blockBytes its parts at token boundaries.
func splitLine(l string, cut bool) []string {
	if !cut || len(l) <= blockBytes {
		return []string{l}
	}
	return tokenize.Split(l, blockBytes)
}

// stream privatizes blocks of input lines until the end of the input. A
// block's output is written after its charge, straight from the results
// (plain text as it is, -json records with their text escaped on the way
// out: no copy of either); a signal stops at once, writing nothing of the
// unfinished block.
func stream(ctx context.Context, p *privatize.Privatizer, src rand.Source, r *linereader.Reader, w io.Writer, enc recordEncoder) error {
	blocks := make(chan block, 1)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go readBlocks(rctx, r, blocks, true)
	bw := bufio.NewWriterSize(w, 64<<10)
	for {
		var b block
		select {
		case <-ctx.Done():
			return errInterrupted
		case b = <-blocks:
		}
		if len(b.lines) > 0 {
			res, err := p.PrivatizeBlock(ctx, b.lines, src, nil)
			switch {
			case ctx.Err() != nil:
				return errInterrupted
			case errors.Is(err, ledger.ErrBudgetExceeded):
				return fmt.Errorf("%w: lines %d–%d: %v", errBudget, b.first, b.last, err)
			case err != nil:
				return fmt.Errorf("lines %d–%d: %w", b.first, b.last, err)
			}
			ends := func(i int) bool { return endsLine(b.lines[i], b.err != nil && i == len(b.lines)-1) }
			if err := enc.write(bw, res, ends); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil {
				return err
			}
		}
		switch {
		case b.err == io.EOF:
			return nil
		case errors.Is(b.err, linereader.ErrLineTooLong):
			return fmt.Errorf("line %d: %w (see -max-line)", b.errLine, b.err)
		case b.err != nil:
			return fmt.Errorf("read standard input: %w", b.err)
		}
	}
}
