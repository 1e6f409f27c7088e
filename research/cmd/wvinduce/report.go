package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wordveil/wordveil/research/internal/alacarte"
)

// countBands split the held-out words by usable occurrences, to show how
// recall grows with the evidence.
var countBands = []int64{10, 30, 100, 1000}

func printReport(w io.Writer, rep *alacarte.EvalReport, cfg *alacarte.EvalConfig, corpus string, setup, total time.Duration) {
	fmt.Fprintf(w, "corpus:   %s: %d documents, %d tokens\n", corpus, rep.Docs, rep.Tokens)
	fmt.Fprintf(w, "source:   %d asset words; %d seen at least %d times; %d held out (seed %d), %d induced\n",
		rep.Vocab, rep.Eligible, cfg.MinCount, rep.Held, cfg.Seed, rep.Induced)
	fmt.Fprintf(w, "fit:      %d training words (first %d non-held-out, seen ≥ %d times; %d rarer left out), window ±%d, %s weights, λ %.3g, residual %.3f\n\n",
		rep.Fit.Words, cfg.Train, cfg.Fit.MinCount, rep.Fit.Rare, cfg.Window, cfg.Fit.Weight, rep.Fit.Lambda, rep.Fit.Residual)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "recall@%d of %d held-out words\tmean\n", cfg.K, rep.Induced)
	fmt.Fprintf(tw, "Hamming, induced A·u\t%.3f\n", rep.HammingInduced)
	fmt.Fprintf(tw, "Hamming, context average u (A = I)\t%.3f\n", rep.HammingContext)
	fmt.Fprintf(tw, "Hamming, uniformly random codes\t%.4f\n", rep.HammingRandom)
	fmt.Fprintf(tw, "cosine, induced float vectors\t%.3f\n", rep.CosineInduced)
	tw.Flush()

	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "occurrences\twords\tHamming induced\tcosine induced\t\n")
	lo := int64(cfg.MinCount)
	for i := 0; i <= len(countBands); i++ {
		hi := int64(1) << 62
		if i < len(countBands) {
			hi = countBands[i]
		}
		if hi <= lo {
			continue
		}
		var n int
		var h, c float64
		for _, r := range rep.Words {
			if r.Count >= lo && r.Count < hi {
				n, h, c = n+1, h+r.Hamming, c+r.Cosine
			}
		}
		band := fmt.Sprintf("%d–%d", lo, hi-1)
		if i == len(countBands) {
			band = fmt.Sprintf("≥ %d", lo)
		}
		if n > 0 {
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t\n", band, n, h/float64(n), c/float64(n))
		}
		lo = hi
	}
	tw.Flush()

	fmt.Fprintf(w, "\ntime: setup (load corpus and source, rebuild and verify the binarizer) %v; counting pass %v; accumulation %v; fit and induction %v; searches %v; total %v\n",
		setup.Round(time.Millisecond), rep.Times[0].Round(time.Millisecond), rep.Times[1].Round(time.Millisecond),
		rep.Times[2].Round(time.Millisecond), rep.Times[3].Round(time.Millisecond), total.Round(time.Millisecond))

	if len(rep.Extra) == 0 {
		return
	}
	fmt.Fprintf(w, "\nneighbours of induced targets (%d nearest asset words)\n", cfg.K)
	for _, x := range rep.Extra {
		if x.Hamming == nil {
			fmt.Fprintf(w, "  %-6s seen %d times: too rare, not induced (minimum %d)\n", x.Word, x.Count, cfg.MinCount)
			continue
		}
		fmt.Fprintf(w, "  %-6s seen %d times\n", x.Word, x.Count)
		fmt.Fprintf(w, "         Hamming: %s\n", strings.Join(x.Hamming, " "))
		fmt.Fprintf(w, "         cosine:  %s\n", strings.Join(x.Cosine, " "))
	}
}
