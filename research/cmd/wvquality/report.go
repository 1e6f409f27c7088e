package main

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

type report struct {
	opts     *options
	args     []string
	words    int
	scanned  int
	lastWord string
	readTime time.Duration
	runs     []*binarize.Comparison
	ablation *ablationResult
	tuning   *tuning
}

func (r *report) write(b *strings.Builder) {
	o, c := r.opts, r.runs[0]
	p := func(format string, a ...any) { fmt.Fprintf(b, format+"\n", a...) }
	p("## Measured by wvquality")
	p("")
	p("Command (from the repository root):")
	p("")
	p("    go run ./research/cmd/wvquality %s", strings.Join(r.args, " "))
	p("")
	p("- Input: `%s`, %d-dimensional. Kept the first %d words that pass `binarize.PlainWord` "+
		"(among the first %d words of the file, which is in frequency order; the last kept word is %q).",
		o.wink, c.SRP.Dim, r.words, r.scanned, r.lastWord)
	p("- Centring: ‖mean‖ = %.3f against a mean row norm of %.3f.", c.MeanNorm, c.RowNorm)
	p("- Queries: %d %s queries (split seed %d; the other half of the split is for tuning). "+
		"Neighbours are searched exactly over all %d words, excluding the query; "+
		"ties in both rankings go to the lower word id (the more frequent word).",
		len(c.Truth.Queries), map[string]string{"report": "held-out report", "tune": "tuning"}[o.split], o.querySeed, r.words)
	p("- recall@%d: overlap of the Hamming top-%d with the cosine top-%d (centred vectors). "+
		"Spearman: rank correlation of cosine distance and Hamming distance over each query's cosine top-%d, averaged.",
		o.k, o.k, o.k, o.depth)
	p("- Machine: GOARCH=%s, GOMAXPROCS=%d, %s.", runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.Version())
	p("")
	p("| %d bits | SRP (seed %d) | NLB (seed %d) | orthogonalised SRP (ablation) |", binarize.Bits, c.SRP.Seed, c.NLB.Seed)
	p("|---|---|---|---|")
	rows := []*binarize.QualityReport{c.SRPReport, c.NLBReport, r.ablation.report}
	cells := func(f func(q *binarize.QualityReport) string) string {
		var s []string
		for _, q := range rows {
			s = append(s, f(q))
		}
		return strings.Join(s, " | ")
	}
	p("| recall@%d (± standard error) | %s |", o.k, cells(func(q *binarize.QualityReport) string {
		return fmt.Sprintf("%.4f ± %.4f", q.RecallAtK, q.RecallStdErr)
	}))
	p("| recall@%d gain over SRP, paired by query (± s.e.) | %s |", o.k, cells(func(q *binarize.QualityReport) string {
		if q == c.SRPReport {
			return "—"
		}
		m, se, err := binarize.PairedDifference(c.SRPReport, q)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%+.4f ± %.4f", m, se)
	}))
	p("| Spearman (top-%d) | %s |", o.depth, cells(func(q *binarize.QualityReport) string {
		if q.SpearmanUndefined > 0 {
			return fmt.Sprintf("%.4f (%d undefined)", q.Spearman, q.SpearmanUndefined)
		}
		return fmt.Sprintf("%.4f", q.Spearman)
	}))
	p("| bit balance, mean \\|p−½\\| | %s |", cells(func(q *binarize.QualityReport) string { return fmt.Sprintf("%.4f", q.Balance.MeanAbsDeviation) }))
	p("| worst bit \\|p−½\\| | %s |", cells(func(q *binarize.QualityReport) string {
		return fmt.Sprintf("%.4f (bit %d)", q.Balance.WorstDeviation, q.Balance.WorstBit)
	}))
	p("| mean \\|bit correlation\\| | %s |", cells(func(q *binarize.QualityReport) string { return fmt.Sprintf("%.4f", q.MeanAbsBitCorrelation) }))
	p("| median nearest-neighbour distance (bits) | %s |", cells(func(q *binarize.QualityReport) string { return fmt.Sprintf("%g", q.MedianNNDistance) }))
	p("| query-to-all distance, mean ± sd (bits) | %s |", cells(func(q *binarize.QualityReport) string {
		return fmt.Sprintf("%.1f ± %.1f", q.MeanPairDistance, q.PairDistanceSD)
	}))
	p("")
	p("For independent, balanced bits the sampling noise alone gives a mean |correlation| of about √(2/(π·%d)) = %.4f.",
		r.words, math.Sqrt(2/(math.Pi*float64(r.words))))
	p("")
	if len(r.runs) > 1 {
		r.writeSeeds(p)
	}
	n := o.nlb
	p("NLB settings: epochs %d, batch %d, Adam learning rate %g, λ %g, normalise %t, gain %g, clip %t.",
		n.Epochs, n.BatchSize, n.LearningRate, n.Lambda, n.Normalize, n.Gain, n.Clip)
	p("")
	p("| NLB epoch | reconstruction MSE | λ·½‖WᵀW−I‖² | bits changed | mean \\|p−½\\| | time |")
	p("|---|---|---|---|---|---|")
	for _, ep := range c.Epochs {
		p("| %d | %.5f | %.3g | %.4f | %.4f | %v |", ep.Epoch, ep.Reconstruction, ep.Regularizer, ep.BitsChanged, ep.Balance, ep.Elapsed.Round(time.Millisecond))
	}
	p("")
	p("| step (first seed) | time |")
	p("|---|---|")
	p("| read and filter the .tgz (stops after the %dth kept word) | %v |", r.words, r.readTime.Round(time.Millisecond))
	p("| centre | %v |", c.CentreTime.Round(time.Millisecond))
	p("| exact cosine top-%d for %d queries (brute force, all cores) | %v |", max(o.k, o.depth), len(c.Truth.Queries), c.TruthTime.Round(time.Millisecond))
	p("| SRP: draw matrix and encode %d words | %v |", r.words, c.SRPTime.Round(time.Millisecond))
	p("| NLB: train %d epochs (sum of epoch times) | %v |", n.Epochs, c.NLBEpochsTime.Round(time.Millisecond))
	p("| NLB: TrainNLB wall time incl. per-epoch statistics | %v |", c.NLBTrainTime.Round(time.Millisecond))
	p("| NLB: encode %d words | %v |", r.words, c.NLBEncodeTime.Round(time.Millisecond))
	p("| score both code sets (Hamming search, Spearman, balance, correlation) | %v |", c.EvalTime.Round(time.Millisecond))
	p("")
	if r.tuning != nil {
		r.writeTuning(p)
	}
}

func (r *report) writeSeeds(p func(string, ...any)) {
	p("Repeated with %d seeds (SRP matrix seed and NLB seed both advanced by one per run), same queries:", len(r.runs))
	p("")
	p("| run | SRP seed | SRP recall@%d | SRP Spearman | NLB seed | NLB recall@%d | NLB Spearman |", r.opts.k, r.opts.k)
	p("|---|---|---|---|---|---|---|")
	var sr, ss, nr, ns []float64
	for i, c := range r.runs {
		p("| %d | %d | %.4f | %.4f | %d | %.4f | %.4f |", i+1, c.SRP.Seed, c.SRPReport.RecallAtK, c.SRPReport.Spearman,
			c.NLB.Seed, c.NLBReport.RecallAtK, c.NLBReport.Spearman)
		sr, ss = append(sr, c.SRPReport.RecallAtK), append(ss, c.SRPReport.Spearman)
		nr, ns = append(nr, c.NLBReport.RecallAtK), append(ns, c.NLBReport.Spearman)
	}
	p("| mean ± sd | | %s | %s | | %s | %s |", meanSD(sr), meanSD(ss), meanSD(nr), meanSD(ns))
	p("")
}

func (r *report) writeTuning(p func(string, ...any)) {
	t := r.tuning
	p("### NLB tuning grid (tuning queries, disjoint from the report queries)")
	p("")
	p("SRP (seed %d) on the tuning queries: recall@%d %.4f, Spearman %.4f. Grid run time %v.",
		r.opts.srpSeed, r.opts.k, t.srp.RecallAtK, t.srp.Spearman, t.time.Round(time.Second))
	p("Fixed: batch %d, normalise %t, clip %t, seed %d.", r.opts.nlb.BatchSize, r.opts.nlb.Normalize, r.opts.nlb.Clip, r.opts.nlb.Seed)
	p("")
	p("| λ | learning rate | gain | epochs | recall@%d | Spearman | train time |", r.opts.k)
	p("|---|---|---|---|---|---|---|")
	for i, row := range t.rows {
		mark := ""
		if i == t.best {
			mark = " **best**"
		}
		p("| %g | %g | %g | %d | %.4f%s | %.4f | %v |", row.cfg.Lambda, row.cfg.LearningRate, row.cfg.Gain, row.cfg.Epochs,
			row.report.RecallAtK, mark, row.report.Spearman, row.train.Round(100*time.Millisecond))
	}
	p("")
}

func meanSD(xs []float64) string {
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	if len(xs) > 1 {
		v /= float64(len(xs) - 1)
	}
	return fmt.Sprintf("%.4f ± %.4f", m, math.Sqrt(v))
}
