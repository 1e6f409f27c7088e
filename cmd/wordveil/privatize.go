package main

import (
	"bytes"
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
	"syscall"
	"time"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/internal/linereader"
	"github.com/wordveil/wordveil/ledger"
	"github.com/wordveil/wordveil/mechanism"
	"github.com/wordveil/wordveil/memo"
	"github.com/wordveil/wordveil/privatize"
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
(streaming). Words not in the vocabulary, numbers, e-mail addresses and URLs
are replaced by the OOV policy, never passed through. Lines that are already
available are privatized as one block: charged to the ledger once, and
written only after the charge is durable.

With -json, each input line gives one JSON object (docs/CLI_JSON.md).

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
	maxLine          int
	seed             uint64
}

func privatizeCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil privatize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, privatizeHelp)
		fs.PrintDefaults()
	}
	var f privatizeFlags
	fs.StringVar(&f.spec.Name, "mechanism", mechanism.NameBRR, fmt.Sprintf("mechanism: one of %v", mechanism.Names()))
	fs.Float64Var(&f.spec.Epsilon, "epsilon", 0, "ε in the mechanism's metric, finite and > 0 (overrides -preset)")
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
	fs.StringVar(&f.memoKey, "memo-key", "", "with -memo: the 32-byte key file sealing the memo (default DIR/memo.key, created 0600)")
	fs.IntVar(&f.maxLine, "max-line", privatize.DefaultMaxTextBytes, "longest input line in bytes; a longer line is an error, read no further")
	fs.Uint64Var(&f.seed, "seed", 0, "EVALUATION ONLY: seed the randomness so output is reproducible (0 = secure randomness)")
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
	m, _, err := f.spec.build(a, buildOptions{allowSaturated: f.allowSaturated, allOutputs: f.allOutputs})
	if err != nil {
		return err
	}
	p, err := f.privatizer(m, a)
	if err != nil {
		return err
	}
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
	case f.maxLine < 1 || f.maxLine > privatize.MaxTextBytesLimit:
		return fmt.Errorf("%w: -max-line %d not in [1, %d]", errUsage, f.maxLine, privatize.MaxTextBytesLimit)
	}
	return nil
}

// privatizer opens the ledger and the memo the flags name and wraps m.
func (f *privatizeFlags) privatizer(m mechanism.Mechanism, a *wva.Asset) (*privatize.Privatizer, error) {
	opt := privatize.Options{OOV: f.oov, Placeholder: f.placeholder, PrivatizePunctuation: f.punct, MaxTextBytes: f.maxLine, Numbers: f.numbers}
	if f.ledgerDir != "" {
		l, err := ledger.Open(f.ledgerDir, ledger.Caps{Lifetime: f.capLifetime, PerPeriod: f.capPeriod, Period: f.period})
		if errors.Is(err, ledger.ErrInvalid) {
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		if err != nil {
			return nil, err
		}
		opt.Ledger = l
	}
	if f.memoDir != "" {
		keyPath := f.memoKey
		if keyPath == "" {
			keyPath = defaultMemoKeyPath(f.memoDir)
		}
		secret, err := memoSecret(keyPath)
		if err != nil {
			return nil, err
		}
		if opt.Memo, err = memo.Open(f.memoDir, privatize.MemoIdentity(m, a), secret); err != nil {
			return nil, err
		}
	}
	p, err := privatize.New(m, a, opt)
	if errors.Is(err, privatize.ErrOOVPolicy) || errors.Is(err, privatize.ErrNoUnitLoss) || errors.Is(err, privatize.ErrNumbers) {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return p, err
}

// block is a group of input lines, or the error that ended the input.
type block struct {
	lines []string
	err   error // io.EOF at the end
}

// readBlocks reads lines into blocks: a block takes every line that is
// already available (up to blockLines and blockBytes), so a pipe is
// charged per block while an interactive user gets each line back at once.
// It runs in its own goroutine so that a signal is seen while a read
// blocks.
func readBlocks(ctx context.Context, r *linereader.Reader, out chan<- block) {
	defer close(out)
	for {
		var b block
		size := 0
		for {
			line, err := r.ReadLine()
			if line != "" {
				b.lines = append(b.lines, line)
				size += len(line)
			}
			if err != nil {
				b.err = err
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

// stream privatizes blocks of input lines until the end of the input. A
// block's output is encoded before its charge (so nothing can fail after
// paying) and written after it; a signal stops at once, writing nothing of
// the unfinished block.
func stream(ctx context.Context, p *privatize.Privatizer, src rand.Source, r *linereader.Reader, w io.Writer, enc recordEncoder) error {
	blocks := make(chan block, 1)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go readBlocks(rctx, r, blocks)
	lineNo := 0
	var buf bytes.Buffer
	for {
		var b block
		select {
		case <-ctx.Done():
			return errInterrupted
		case b = <-blocks:
		}
		if len(b.lines) > 0 {
			buf.Reset()
			res, err := p.PrivatizeBlock(ctx, b.lines, src, func(res []privatize.Result) error {
				return enc.encode(&buf, res)
			})
			switch {
			case ctx.Err() != nil:
				return errInterrupted
			case errors.Is(err, ledger.ErrBudgetExceeded):
				return fmt.Errorf("%w: lines %d–%d: %v", errBudget, lineNo+1, lineNo+len(b.lines), err)
			case err != nil:
				return fmt.Errorf("lines %d–%d: %w", lineNo+1, lineNo+len(b.lines), err)
			}
			if res[0].Accounting.Ledger != nil && enc.json {
				// Again with the receipt: the same encoder, which cannot
				// fail on what it just encoded.
				buf.Reset()
				if err := enc.encode(&buf, res); err != nil {
					return err
				}
			}
			if _, err := w.Write(buf.Bytes()); err != nil {
				return err
			}
			lineNo += len(b.lines)
		}
		switch {
		case b.err == io.EOF:
			return nil
		case errors.Is(b.err, linereader.ErrLineTooLong):
			return fmt.Errorf("line %d: %w (see -max-line)", lineNo+1, b.err)
		case b.err != nil:
			return fmt.Errorf("read standard input: %w", b.err)
		}
	}
}
