package main

import (
	"time"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

// The NLB tuning grid. Each run trains for the largest checkpoint and is
// scored at every checkpoint, on the tuning queries only.
var (
	gridLambda      = []float64{0, 1e-4, 1e-3, 1e-2, 1}
	gridLR          = []float64{1e-3, 3e-3}
	gridGain        = []float64{1, 3}
	gridCheckpoints = []int{3, 5, 10}
)

type tuneRow struct {
	cfg    binarize.NLBConfig // Epochs is the checkpoint
	report *binarize.QualityReport
	train  time.Duration // training time up to the checkpoint
}

type tuning struct {
	srp  *binarize.QualityReport // SRP on the same tuning queries, for reference
	rows []tuneRow
	best int
	time time.Duration
}

func tuneNLB(e *binarize.Embeddings, queries []int, o *options, logf func(string, ...any)) (*tuning, error) {
	start := time.Now()
	centred, _, err := binarize.Centre(e)
	if err != nil {
		return nil, err
	}
	truth, err := binarize.CosineNeighbours(centred, binarize.QualityOptions{Queries: queries, K: o.k, RankDepth: o.depth})
	if err != nil {
		return nil, err
	}
	tu := &tuning{}
	srp, err := binarize.NewSRP(e, o.srpSeed)
	if err != nil {
		return nil, err
	}
	codes, err := srp.EncodeAll(e)
	if err != nil {
		return nil, err
	}
	if tu.srp, err = truth.Evaluate(codes); err != nil {
		return nil, err
	}
	last := gridCheckpoints[len(gridCheckpoints)-1]
	for _, lambda := range gridLambda {
		for _, lr := range gridLR {
			for _, gain := range gridGain {
				cfg := o.nlb
				cfg.Lambda, cfg.LearningRate, cfg.Gain, cfg.Epochs = lambda, lr, gain, last
				var snapshots []binarize.NLBEpoch
				cfg.Progress = func(ep binarize.NLBEpoch) { snapshots = append(snapshots, ep) }
				if _, err := binarize.TrainNLB(e, cfg); err != nil {
					return nil, err
				}
				var trained time.Duration
				for _, ep := range snapshots {
					trained += ep.Elapsed
					if !contains(gridCheckpoints, ep.Epoch) {
						continue
					}
					codes, err := ep.Encoder.EncodeAll(e)
					if err != nil {
						return nil, err
					}
					r, err := truth.Evaluate(codes)
					if err != nil {
						return nil, err
					}
					row := cfg
					row.Epochs, row.Progress = ep.Epoch, nil
					tu.rows = append(tu.rows, tuneRow{cfg: row, report: r, train: trained})
					logf("  tune λ=%g lr=%g gain=%g epochs=%d: recall %.4f spearman %.4f",
						lambda, lr, gain, ep.Epoch, r.RecallAtK, r.Spearman)
				}
			}
		}
	}
	for i, r := range tu.rows {
		if r.report.RecallAtK > tu.rows[tu.best].report.RecallAtK {
			tu.best = i
		}
	}
	tu.time = time.Since(start)
	return tu, nil
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
