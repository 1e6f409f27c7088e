package binarize

import (
	"math"
	"runtime"
	"sync"
	"time"

	"github.com/wordveil/wordveil/internal/hamming"
)

// Near-lossless binarization (NLB), re-implemented from the description in
// Tissier, Gravier and Habrard, "Near-lossless Binarization of Word
// Embeddings", AAAI 2019 (the authors' GPLv3 code was not consulted).
//
// An autoencoder with tied weights W (Bits×Dim):
//
//	encoder  b = H(W·x)            H the Heaviside step, b ∈ {0,1}^Bits
//	decoder  y = tanh(Wᵀ·b + c)    c ∈ ℝ^Dim
//	loss     ‖y − x‖² / Dim (mean over the batch) + λ·½‖WᵀW − I‖²_F
//
// H has zero gradient, so W learns through its use in the decoder and
// through the regularizer, which pushes the Gram matrix WᵀW towards the
// identity: the rows of W then form a tight frame, so no direction of the
// input space gets more bits than another. (On GloVe a small λ, 1e-4,
// measured best; λ = 1e-2 clearly hurt: see docs/BINARIZATION.md.)
// Inputs are centred and then brought into tanh's range (Preprocess:
// optional unit normalisation, a gain, clipping to [−1, 1]).
//
// Determinism: W starts from the SRP matrix of the same seed (scaled by
// 1/√Bits so that E[WᵀW] = I; before training, the codes are the SRP codes
// except where clipping the inputs flips a bit), the
// mini-batch order comes from a seeded PCG stream, and every batch gradient
// is the sum of nlbShards fixed shards added in shard order, whatever the
// number of goroutines. All products are rounded explicitly (detmath.go).

// nlbShards is the fixed number of parts each mini-batch gradient is split
// into. It fixes the order of the floating-point sums, so it must not
// depend on the machine; up to nlbShards cores are used.
const nlbShards = 4

// NLBConfig holds the training settings. Use DefaultNLBConfig and change
// fields; every field must be valid (zero is not "default").
type NLBConfig struct {
	Seed         uint64  // seeds the initial matrix and the batch order
	Epochs       int     // passes over the data, ≥ 1
	BatchSize    int     // samples per Adam step, ≥ 1
	LearningRate float64 // Adam step size, > 0
	Lambda       float64 // weight of the orthogonality regularizer, ≥ 0
	Normalize    bool    // scale each centred vector to unit length first
	Gain         float64 // then multiply by Gain, > 0
	Clip         bool    // then clip to [−1, 1] (tanh's range)
	// Progress, if non-nil, is called after each epoch with its statistics.
	// Computing them costs one extra encoding pass per epoch.
	Progress func(NLBEpoch)
}

// DefaultNLBConfig returns the settings chosen for centred GloVe 100d on
// the tuning queries of docs/BINARIZATION.md (the best recall@10 of the
// grid there; every λ ≤ 1e-4 setting scored within 0.013 of it, while
// λ = 1e-2 was clearly worse).
func DefaultNLBConfig() NLBConfig {
	return NLBConfig{
		Seed:         1,
		Epochs:       5,
		BatchSize:    256,
		LearningRate: 3e-3,
		Lambda:       1e-4,
		Normalize:    true,
		Gain:         3,
		Clip:         true,
	}
}

func (c *NLBConfig) validate() error {
	switch {
	case c.Epochs < 1:
		return errorf("NLB epochs %d < 1", c.Epochs)
	case c.BatchSize < 1:
		return errorf("NLB batch size %d < 1", c.BatchSize)
	case !(c.LearningRate > 0) || math.IsInf(c.LearningRate, 0):
		return errorf("NLB learning rate %v is not a positive finite number", c.LearningRate)
	case !(c.Lambda >= 0) || math.IsInf(c.Lambda, 0):
		return errorf("NLB lambda %v is not a non-negative finite number", c.Lambda)
	case !(c.Gain > 0) || math.IsInf(c.Gain, 0):
		return errorf("NLB gain %v is not a positive finite number", c.Gain)
	}
	return nil
}

// NLBEpoch reports one training epoch.
type NLBEpoch struct {
	Epoch          int           // 1-based
	Reconstruction float64       // mean of (y−x)² per component over the epoch's batches
	Regularizer    float64       // ½‖WᵀW − I‖²_F at the end of the epoch
	BitsChanged    float64       // fraction of code bits that changed during the epoch
	Balance        float64       // mean over bits of |fraction of ones − ½| at the end
	Elapsed        time.Duration // wall time of the epoch, statistics excluded
	Encoder        *Projection   // a copy of the encoder as it is after this epoch
}

// TrainNLB trains a near-lossless binarization encoder on e (raw vectors;
// it centres them itself) and returns it. The result depends only on e and
// cfg (not on GOMAXPROCS or scheduling); progress statistics are not part
// of the result.
func TrainNLB(e *Embeddings, cfg NLBConfig) (*Projection, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	mean, err := Mean(e)
	if err != nil {
		return nil, err
	}
	t := newNLBTrainer(e, cfg, mean)
	var prev []hamming.Code
	if cfg.Progress != nil {
		prev = t.codes()
	}
	order := make([]int, t.n)
	for i := range order {
		order[i] = i
	}
	shuffler := newRNG(cfg.Seed, streamShuffle)
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		start := time.Now()
		shuffler.shuffle(order)
		var sqErr float64
		for lo := 0; lo < t.n; lo += cfg.BatchSize {
			sqErr += t.step(order[lo:min(lo+cfg.BatchSize, t.n)])
		}
		elapsed := time.Since(start)
		if cfg.Progress != nil {
			codes := t.codes()
			cfg.Progress(NLBEpoch{
				Epoch:          epoch,
				Reconstruction: sqErr / float64(t.n*t.dim),
				Regularizer:    t.regularizer(nil),
				BitsChanged:    changedFraction(prev, codes),
				Balance:        Balance(codes).MeanAbsDeviation,
				Elapsed:        elapsed,
				Encoder:        t.projection(),
			})
			prev = codes
		}
	}
	return t.projection(), nil
}

// projection returns the current encoder (a copy, so training can go on).
func (t *nlbTrainer) projection() *Projection {
	prep := t.prep
	prep.Mean = append([]float32(nil), t.prep.Mean...)
	return &Projection{Method: "nlb", Seed: t.cfg.Seed, Dim: t.dim, Prep: prep, W: append([]float64(nil), t.w...)}
}

type nlbTrainer struct {
	cfg    NLBConfig
	n, dim int
	prep   Preprocess
	x      []float64 // prepared inputs, n×dim
	w      []float64 // Bits×dim
	c      []float64 // decoder bias, dim
	adamW  adam
	adamC  adam
	// per-shard gradient buffers, summed in shard order
	gW    [nlbShards][]float64
	gC    [nlbShards][]float64
	sqErr [nlbShards]float64
	gram  []float64 // dim×dim scratch for WᵀW − I
}

func newNLBTrainer(e *Embeddings, cfg NLBConfig, mean []float32) *nlbTrainer {
	t := &nlbTrainer{
		cfg:  cfg,
		n:    e.Len(),
		dim:  e.Dim,
		prep: Preprocess{Mean: mean, Normalize: cfg.Normalize, Gain: cfg.Gain, Clip: cfg.Clip},
		c:    make([]float64, e.Dim),
		gram: make([]float64, e.Dim*e.Dim),
	}
	t.x = make([]float64, t.n*t.dim)
	parallelRanges(t.n, 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			t.prep.prepare(e.Vector(i), t.x[i*t.dim:(i+1)*t.dim])
		}
	})
	t.w = gaussianMatrix(cfg.Seed, Bits, t.dim)
	scale := 1 / math.Sqrt(Bits)
	for i := range t.w {
		t.w[i] *= scale
	}
	t.adamW = newAdam(len(t.w))
	t.adamC = newAdam(t.dim)
	for s := range t.gW {
		t.gW[s] = make([]float64, len(t.w))
		t.gC[s] = make([]float64, t.dim)
	}
	return t
}

// step does one Adam update on the batch and returns its summed squared
// reconstruction error.
func (t *nlbTrainer) step(batch []int) float64 {
	gW, gC, sqErr := t.gradient(batch)
	t.adamW.update(t.w, gW, t.cfg.LearningRate)
	t.adamC.update(t.c, gC, t.cfg.LearningRate)
	return sqErr
}

// gradient returns the gradient of the batch loss with respect to W and c
// (in buffers reused by the next call) and the batch's summed squared
// reconstruction error. The codes b are held fixed: H has no gradient.
func (t *nlbTrainer) gradient(batch []int) (gW, gC []float64, sqErr float64) {
	workers := min(runtime.GOMAXPROCS(0), nlbShards)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := w; s < nlbShards; s += workers {
				t.shardGradient(s, batch[len(batch)*s/nlbShards:len(batch)*(s+1)/nlbShards])
			}
		}()
	}
	wg.Wait()
	// Sum the shards in order into shard 0's buffers.
	gW, gC = t.gW[0], t.gC[0]
	sqErr = t.sqErr[0]
	for s := 1; s < nlbShards; s++ {
		for i, v := range t.gW[s] {
			gW[i] += v
		}
		for i, v := range t.gC[s] {
			gC[i] += v
		}
		sqErr += t.sqErr[s]
	}
	// d/ds of the batch-mean per-component squared error is 2(y−x)(1−y²)/(B·dim);
	// the shards accumulated (y−x)(1−y²).
	f := 2 / float64(len(batch)*t.dim)
	for i := range gW {
		gW[i] *= f
	}
	for i := range gC {
		gC[i] *= f
	}
	if t.cfg.Lambda > 0 {
		t.regularizer(gW)
	}
	return gW, gC, sqErr
}

// shardGradient accumulates, for the samples of one shard, the decoder's
// gradient factor δ = (y−x)⊙(1−y²) into gW (rows of the active bits) and
// gC, and the squared error into sqErr.
func (t *nlbTrainer) shardGradient(s int, samples []int) {
	dim := t.dim
	gW, gC := t.gW[s], t.gC[s]
	clear(gW)
	clear(gC)
	var sqErr float64
	active := make([]int, 0, Bits)
	pre := make([]float64, dim)
	for _, i := range samples {
		x := t.x[i*dim : (i+1)*dim]
		copy(pre, t.c)
		active = active[:0]
		for k := 0; k < Bits; k++ {
			row := t.w[k*dim : (k+1)*dim]
			if dot(x, row) > 0 {
				active = append(active, k)
				for j, v := range row {
					pre[j] += v
				}
			}
		}
		for j, p := range pre {
			y := tanhDet(p)
			d := y - x[j]
			sqErr += float64(d * d)
			pre[j] = float64(d * (1 - float64(y*y))) // reuse pre as δ
		}
		for j, d := range pre {
			gC[j] += d
		}
		for _, k := range active {
			row := gW[k*dim : (k+1)*dim]
			for j, d := range pre {
				row[j] += d
			}
		}
	}
	t.sqErr[s] = sqErr
}

// regularizer computes G = WᵀW − I and returns ½‖G‖²_F·λ; if g is not nil
// it also adds the gradient λ·2·W·G to g. Each output element is a sum in
// a fixed order, computed by exactly one goroutine.
func (t *nlbTrainer) regularizer(g []float64) float64 {
	dim, w, gram := t.dim, t.w, t.gram
	parallelRanges(dim, 8, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := gram[i*dim : (i+1)*dim]
			clear(row)
			for k := 0; k < Bits; k++ {
				axpy(w[k*dim+i], w[k*dim:(k+1)*dim], row)
			}
			row[i]--
		}
	})
	var sq float64
	for _, v := range gram {
		sq += float64(v * v)
	}
	if g != nil {
		f := 2 * t.cfg.Lambda
		parallelRanges(Bits, 8, func(lo, hi int) {
			for k := lo; k < hi; k++ {
				wk, gk := w[k*dim:(k+1)*dim], g[k*dim:(k+1)*dim]
				for i := 0; i < dim; i++ {
					// (W·G)[k][i] = Σ_j W[k][j]·G[j][i], and G is symmetric.
					gk[i] += float64(f * dot(wk, gram[i*dim:(i+1)*dim]))
				}
			}
		})
	}
	return t.cfg.Lambda * sq / 2
}

// codes encodes all training inputs with the current W.
func (t *nlbTrainer) codes() []hamming.Code {
	out := make([]hamming.Code, t.n)
	parallelRanges(t.n, 256, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = encodePrepared(t.w, t.dim, t.x[i*t.dim:(i+1)*t.dim])
		}
	})
	return out
}

func changedFraction(a, b []hamming.Code) float64 {
	if len(a) == 0 {
		return 0
	}
	var d int
	for i := range a {
		d += hamming.Distance(a[i], b[i])
	}
	return float64(d) / float64(len(a)*Bits)
}

// adam is the optimiser of Kingma and Ba (2015) with the usual constants.
type adam struct {
	m, v           []float64
	beta1t, beta2t float64 // β₁ᵗ and β₂ᵗ, kept by multiplication (no math.Pow)
}

const (
	adamBeta1 = 0.9
	adamBeta2 = 0.999
	adamEps   = 1e-8
)

func newAdam(n int) adam {
	return adam{m: make([]float64, n), v: make([]float64, n), beta1t: 1, beta2t: 1}
}

func (a *adam) update(p, g []float64, lr float64) {
	a.beta1t *= adamBeta1
	a.beta2t *= adamBeta2
	c1, c2 := 1-a.beta1t, 1-a.beta2t
	for i, gi := range g {
		a.m[i] = float64(adamBeta1*a.m[i]) + float64((1-adamBeta1)*gi)
		a.v[i] = float64(adamBeta2*a.v[i]) + float64((1-adamBeta2)*float64(gi*gi))
		mhat, vhat := a.m[i]/c1, a.v[i]/c2
		p[i] -= float64(lr * mhat / (math.Sqrt(vhat) + adamEps))
	}
}
