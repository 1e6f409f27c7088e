package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/hamming"
)

// benchCmd measures text throughput per mechanism on this machine, on a
// generated text of vocabulary words (for precise figures with confidence
// intervals use the Go benchmarks: docs/BENCHMARKS.md).
func benchCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	nWords := fs.Int("words", 10000, "words in the generated text")
	preset := fs.String("preset", string(core.Balanced), "privacy level for every mechanism")
	minTime := fs.Duration("time", time.Second, "minimum measuring time per mechanism")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 || *nWords < 1 {
		return fmt.Errorf("%w: bench takes flags only, with -words ≥ 1", errUsage)
	}
	a, err := loadAsset("")
	if err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	for i := 0; i < *nWords; i++ {
		sb.WriteString(a.Word(r.IntN(min(5000, a.Len()))))
		sb.WriteByte(" .,"[min(r.IntN(20), 2)])
	}
	text := sb.String()
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "mechanism\tε\twords/s\tms per text\t\n")
	for _, name := range presetMechanisms {
		p, err := presetPrivatizer(name, *preset)
		if err != nil {
			return err
		}
		calls := 0
		t0 := time.Now()
		for time.Since(t0) < *minTime || calls == 0 {
			if _, err := p.Privatize(text); err != nil {
				p.Close()
				return fromRoot(err, "")
			}
			calls++
		}
		el := time.Since(t0)
		eps := p.Info().Epsilon
		if err := p.Close(); err != nil {
			return fromRoot(err, "")
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%.0f\t%.2f\t\n", name, eps, float64(calls**nWords)/el.Seconds(), el.Seconds()*1000/float64(calls))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\n%d-word generated text, preset %q, one goroutine, %s kernel.\n", *nWords, *preset, hamming.Kernel())
	return nil
}
