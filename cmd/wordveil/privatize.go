package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/ledger"
)

// errBudget marks a refused charge (exit code 3).
var errBudget = errors.New("privacy budget exhausted")

// errInterrupted marks Ctrl-C (exit code 130).
var errInterrupted = errors.New("interrupted")

func privatizeCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil privatize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: wordveil privatize [flags] < text\n\n"+
			"Replaces every word of standard input with a word drawn from a metric-DP mechanism\n"+
			"and writes the result to standard output, line by line (streaming). Words not in the\n"+
			"vocabulary, numbers, e-mail addresses and URLs are replaced by the OOV policy, never\n"+
			"passed through. Exit codes: 0 ok, 1 error, 2 usage, 3 budget exhausted, 130 interrupted.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var spec mechanismSpec
	fs.StringVar(&spec.Name, "mechanism", core.NameBRR, fmt.Sprintf("mechanism: one of %v", core.MechanismNames()))
	fs.Float64Var(&spec.Epsilon, "epsilon", 0, "ε in the mechanism's metric (overrides -preset)")
	fs.StringVar(&spec.Preset, "preset", core.LevelBalanced, "privacy level: strong, balanced or light (docs/PRIVACY_LEVELS.md)")
	oov := fs.String("oov", core.OOVRandomWord, "out-of-vocabulary policy: random-word or placeholder")
	placeholder := fs.String("placeholder", core.DefaultPlaceholder, "replacement for -oov placeholder")
	punct := fs.Bool("punct", false, "privatize punctuation too (each mark becomes a uniformly random one)")
	asJSON := fs.Bool("json", false, "write one JSON object per line: the text and its privacy accounting")
	assetPath := fs.String("asset", "", "asset file (default: the embedded English asset)")
	ledgerDir := fs.String("ledger", "", "charge a privacy budget kept in this directory")
	memoDir := fs.String("memo", "", "keep a permanent response per word in this directory (docs/TEXT_PRIVACY.md)")
	capLifetime := fs.Float64("cap", 0, "with -ledger: lifetime cap in unit-free loss ε·P_avg (0 = none)")
	capPeriod := fs.Float64("cap-period", 0, "with -ledger: cap per -period (0 = none)")
	period := fs.Duration("period", 24*time.Hour, "with -cap-period: the rolling window")
	seed := fs.Uint64("seed", 0, "EVALUATION ONLY: seed the randomness so output is reproducible (0 = secure randomness)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: privatize reads standard input and takes no arguments", errUsage)
	}
	a, err := loadAsset(*assetPath)
	if err != nil {
		return err
	}
	m, _, err := spec.build(a)
	if err != nil {
		return err
	}
	opt := core.TextOptions{OOV: *oov, Placeholder: *placeholder, PrivatizePunctuation: *punct}
	if *ledgerDir != "" {
		l, err := ledger.Open(*ledgerDir, ledger.Caps{Lifetime: *capLifetime, PerPeriod: *capPeriod, Period: *period})
		if err != nil {
			return err
		}
		opt.Ledger = l
	}
	if *memoDir != "" {
		if opt.Memo, err = core.OpenMemo(*memoDir, core.MemoKey(m, a)); err != nil {
			return err
		}
	}
	p, err := core.NewTextPrivatizer(m, a, opt)
	if err != nil {
		if errors.Is(err, core.ErrOOVPolicy) {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		return err
	}
	var src rand.Source = core.NewSecureSource()
	if *seed != 0 {
		fmt.Fprintln(stderr, "wordveil: WARNING: -seed makes the output reproducible by anyone who knows the seed; use it for evaluation only, never on real data")
		var k [32]byte
		binary.LittleEndian.PutUint64(k[:], *seed)
		src = core.NewSeededSourceForEvaluation(k)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	in := bufio.NewReaderSize(stdin, 1<<16)
	out := bufio.NewWriterSize(stdout, 1<<16)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for {
		if ctx.Err() != nil {
			return errInterrupted
		}
		line, rerr := in.ReadString('\n')
		if line != "" {
			res, err := p.Privatize(line, src)
			if err != nil {
				out.Flush()
				if errors.Is(err, ledger.ErrBudgetExceeded) {
					return fmt.Errorf("%w: %v", errBudget, err)
				}
				return err
			}
			if *asJSON {
				if err := enc.Encode(res); err != nil {
					return err
				}
			} else if _, err := out.WriteString(res.Text); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return fmt.Errorf("read standard input: %w", rerr)
		}
	}
}
