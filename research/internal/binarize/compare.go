package binarize

import (
	"time"

	"github.com/wordveil/wordveil/internal/hamming"
)

// CompareConfig configures Compare.
type CompareConfig struct {
	SRPSeed uint64         // seed of the sign-random-projection matrix
	NLB     NLBConfig      // near-lossless binarization settings (with its own seed)
	Quality QualityOptions // queries, K and rank depth of the evaluation
}

// Comparison is the outcome of Compare: both encoders, their codes'
// quality against the same cosine ground truth, and the time of each step.
type Comparison struct {
	Mean      []float32 // the centring vector (the same for both encoders)
	MeanNorm  float64   // ‖Mean‖
	RowNorm   float64   // mean ‖row‖ of the uncentred input, for scale
	SRP, NLB  *Projection
	SRPCodes  []hamming.Code
	NLBCodes  []hamming.Code
	SRPReport *QualityReport
	NLBReport *QualityReport
	Epochs    []NLBEpoch  // NLB training statistics, one per epoch
	Truth     *Neighbours // the cosine ground truth, to score further code sets

	CentreTime    time.Duration // mean and centring
	TruthTime     time.Duration // exact cosine neighbours of the queries
	SRPTime       time.Duration // building SRP and encoding every row
	NLBTrainTime  time.Duration // TrainNLB wall time, per-epoch statistics included
	NLBEpochsTime time.Duration // the epochs' own training time (statistics excluded)
	NLBEncodeTime time.Duration // encoding every row with the trained NLB
	EvalTime      time.Duration // scoring both code sets against the ground truth
	TotalTime     time.Duration
}

// Compare centres e, builds sign-random-projection and near-lossless
// binarization codes for every row, and scores both against the exact
// cosine neighbours of the centred vectors. cfg.NLB.Progress, if set, is
// still called after each epoch.
func Compare(e *Embeddings, cfg CompareConfig) (*Comparison, error) {
	start := time.Now()
	centred, mean, err := Centre(e)
	if err != nil {
		return nil, err
	}
	c := &Comparison{Mean: mean, MeanNorm: l2norm(mean)}
	for i := 0; i < e.Len(); i++ {
		c.RowNorm += l2norm(e.Vector(i))
	}
	c.RowNorm /= float64(e.Len())
	c.CentreTime = time.Since(start)

	t := time.Now()
	truth, err := CosineNeighbours(centred, cfg.Quality)
	if err != nil {
		return nil, err
	}
	c.Truth = truth
	c.TruthTime = time.Since(t)

	t = time.Now()
	if c.SRP, err = NewSRP(e, cfg.SRPSeed); err != nil {
		return nil, err
	}
	if c.SRPCodes, err = c.SRP.EncodeAll(e); err != nil {
		return nil, err
	}
	c.SRPTime = time.Since(t)

	nlbCfg := cfg.NLB
	user := nlbCfg.Progress
	nlbCfg.Progress = func(ep NLBEpoch) {
		c.Epochs = append(c.Epochs, ep)
		c.NLBEpochsTime += ep.Elapsed
		if user != nil {
			user(ep)
		}
	}
	t = time.Now()
	if c.NLB, err = TrainNLB(e, nlbCfg); err != nil {
		return nil, err
	}
	c.NLBTrainTime = time.Since(t)
	t = time.Now()
	if c.NLBCodes, err = c.NLB.EncodeAll(e); err != nil {
		return nil, err
	}
	c.NLBEncodeTime = time.Since(t)

	t = time.Now()
	if c.SRPReport, err = truth.Evaluate(c.SRPCodes); err != nil {
		return nil, err
	}
	if c.NLBReport, err = truth.Evaluate(c.NLBCodes); err != nil {
		return nil, err
	}
	c.EvalTime = time.Since(t)
	c.TotalTime = time.Since(start)
	return c, nil
}
