package floatmech

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/research/internal/euclid"
)

// TruncGumbelParams are the constants of the truncated Gumbel mechanism
// for one (ε, N, Δmin, Δmax), computed as the public implementation
// sjmeis/MLDP computes them:
//
//	a = (ε − 2(1 + ln N)/Δmin) / 3
//	b = 2Δmax / min(W₀(2a·Δmax), ln(a·Δmin))   (the Gumbel scale)
//
// with W₀ the principal branch of Lambert's W. The formula yields a
// positive scale only when a·Δmin > 1, i.e. ε > (2(1 + ln N) + 3)/Δmin;
// smaller ε is refused (MLDP then takes the real part of a complex W or a
// negative logarithm and draws noise at a scale no analysis covers).
type TruncGumbelParams struct {
	Epsilon float64
	N       int     // vocabulary size
	DMin    float64 // smallest distance between two words
	DMax    float64 // the truncation: an upper bound on every distance
	A       float64
	B       float64 // the Gumbel scale
	Mu      float64 // ln(N − 1), the mean of the candidate count's Poisson law

	// lnHazard[k] = ln Pr[K = k | K ≥ k] for the Poisson(Mu) law truncated
	// to [0, N−1], so K is drawn with exact Bernoulli trials and no k is
	// made impossible by rounding (sample.BernoulliLog).
	lnHazard []float64
	// tLo, width, mass: the noise is −B·ln T with T = tLo + E, E ~ Exp(1)
	// truncated to [0, width]; mass = 1 − e^(−width).
	tLo, width, mass float64
}

// MinTruncGumbelEpsilon is the smallest ε (exclusive) for which the
// truncated Gumbel calibration gives a positive scale.
func MinTruncGumbelEpsilon(n int, dmin float64) float64 {
	return (2*(1+math.Log(float64(n))) + 3) / dmin
}

// NewTruncGumbelParams computes the constants. n must be ≥ 3 (for N = 2,
// ln(N − 1) = 0 and every candidate set is empty), 0 < dmin ≤ dmax finite.
func NewTruncGumbelParams(eps float64, n int, dmin, dmax float64) (TruncGumbelParams, error) {
	if err := checkEps(eps); err != nil {
		return TruncGumbelParams{}, err
	}
	if n < 3 || n > 1<<31-1 {
		return TruncGumbelParams{}, fmt.Errorf("%w: vocabulary size %d (need at least 3 words)", ErrInvalidParameter, n)
	}
	if !(dmin > 0) || !(dmax >= dmin) || math.IsInf(dmax, 0) {
		return TruncGumbelParams{}, fmt.Errorf("%w: distances Δmin = %v, Δmax = %v (need 0 < Δmin ≤ Δmax finite; duplicate vectors give Δmin = 0)", ErrInvalidParameter, dmin, dmax)
	}
	p := TruncGumbelParams{Epsilon: eps, N: n, DMin: dmin, DMax: dmax, Mu: math.Log(float64(n - 1))}
	p.A = (eps - 2*(1+math.Log(float64(n)))/dmin) / 3
	lnAD := math.Log(p.A * dmin)
	if !(p.A > 0) || !(lnAD > 0) {
		return TruncGumbelParams{}, fmt.Errorf("%w: ε = %v gives no positive Gumbel scale; need ε > %.6g for N = %d, Δmin = %.6g", ErrInvalidParameter, eps, MinTruncGumbelEpsilon(n, dmin), n, dmin)
	}
	p.B = 2 * dmax / min(lambertW0(2*p.A*dmax), lnAD)
	if !(p.B > 0) || math.IsInf(p.B, 0) {
		return TruncGumbelParams{}, fmt.Errorf("%w: Gumbel scale %v", ErrInvalidParameter, p.B)
	}
	// Gumbel CDF F(x) = exp(−e^(−x/B)): with T = e^(−x/B), |x| ≤ Δmax is
	// T ∈ [e^(−Δmax/B), e^(Δmax/B)], where T has density ∝ e^(−T).
	r := dmax / p.B
	p.tLo = math.Exp(-r)
	p.width = math.Exp(r) - p.tLo
	if math.IsInf(p.width, 0) {
		return TruncGumbelParams{}, fmt.Errorf("%w: Δmax/B = %v overflows", ErrInvalidParameter, r)
	}
	p.mass = -math.Expm1(-p.width)
	p.lnHazard = poissonHazards(p.Mu, n-1)
	return p, nil
}

// poissonHazards returns ln Pr[K = k | K ≥ k] for K ~ Poisson(mu)
// truncated to [0, kmax]: ln pmf(k) − ln Σ_{j≥k} pmf(j), summed from the
// top in the log domain so no tail underflows. The last entry is 0.
func poissonHazards(mu float64, kmax int) []float64 {
	lnMu := math.Log(mu)
	lp := make([]float64, kmax+1)
	for k := range lp {
		lg, _ := math.Lgamma(float64(k) + 1)
		lp[k] = float64(k)*lnMu - mu - lg
	}
	h := make([]float64, kmax+1)
	tail := math.Inf(-1)
	for k := kmax; k >= 0; k-- {
		tail = sample.LogAddExp(tail, lp[k])
		h[k] = min(0, lp[k]-tail)
	}
	return h
}

// candidates draws K, the size of the candidate set, from the truncated
// Poisson law by sequential exact Bernoulli trials.
func (p *TruncGumbelParams) candidates(src rand.Source) int {
	for k, lh := range p.lnHazard {
		if sample.BernoulliLog(src, lh) {
			return k
		}
	}
	return len(p.lnHazard) - 1 // unreachable: the last hazard is 1
}

// truncWidthRejection: above this width the truncated exponential is
// drawn by rejection from sample.Exponential (acceptance ≥ 1 − e^−30), so
// its tail keeps full precision; below it by the exact inverse CDF, whose
// uniform never comes within 2^-53 of the truncated mass.
const truncWidthRejection = 30

// noise returns a Gumbel(0, B) variate conditioned on |x| ≤ Δmax.
func (p *TruncGumbelParams) noise(src rand.Source) float64 {
	var e float64
	if p.width > truncWidthRejection {
		for {
			if e = sample.Exponential(src); e <= p.width {
				break
			}
		}
	} else {
		e = -math.Log1p(-sample.UniformOpen(src) * p.mass)
	}
	x := -p.B * math.Log(p.tLo+e)
	// Only rounding at the very edge can leave [−Δmax, Δmax].
	return min(p.DMax, max(-p.DMax, x))
}

// lambertW0 is the principal branch of Lambert's W for x ≥ 0 (w·e^w = x),
// by Halley's iteration from ln(1 + x).
func lambertW0(x float64) float64 {
	if x == 0 {
		return 0
	}
	w := math.Log1p(x)
	for range 64 {
		ew := math.Exp(w)
		f := w*ew - x
		wn := w - f/(ew*(w+1)-(w+2)*f/(2*w+2))
		if math.Abs(wn-w) <= 1e-15*(1+math.Abs(wn)) {
			return wn
		}
		w = wn
	}
	return w
}

// TruncGumbel is the truncated Gumbel mechanism as implemented in
// sjmeis/MLDP (the mechanism's paper is in FLAIRS-36, 2023): for input w,
// draw K from a Poisson(ln(N − 1)) law truncated to [0, N − 1]; take the K
// words nearest to φ(w) (exact Euclidean search over ALL of W, so w itself,
// at distance 0, is always first); add to each candidate's distance an
// independent Gumbel(0, B) variate conditioned on |x| ≤ Δmax; release the
// candidate with the smallest noisy distance. K = 0 releases w (as MLDP
// does; the same output K = 1 gives).
//
// Claimed guarantee: ε·‖φ(w) − φ(w')‖₂ metric DP, with ε the parameter
// the calibration of TruncGumbelParams is solved for. The candidate set
// depends on the input's neighbourhood, so the claim is not a
// post-processing argument; docs/FLOAT_MECHANISMS.md reports what the
// exact output law on small vocabularies shows.
type TruncGumbel struct {
	emb *Embedding
	P   TruncGumbelParams
}

// NewTruncGumbel returns the mechanism at ε over emb. Δmin is the exact
// smallest distance between two words (an exact nearest-neighbour pass
// over the vocabulary); Δmax bounds every distance: the exact diameter for
// N ≤ exactDiameterMax, otherwise 2·max_w ‖φ(w) − φ(0)‖ (at least the
// diameter, by the triangle inequality, and at most twice it).
func NewTruncGumbel(emb *Embedding, eps float64) (*TruncGumbel, error) {
	if emb == nil {
		return nil, fmt.Errorf("truncgumbel: %w: nil embedding", ErrInvalidParameter)
	}
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("truncgumbel: %w", err)
	}
	if emb.Len() < 3 {
		return nil, fmt.Errorf("truncgumbel: %w: vocabulary size %d (need at least 3 words)", ErrInvalidParameter, emb.Len())
	}
	dmin, err := minDistance(emb)
	if err != nil {
		return nil, fmt.Errorf("truncgumbel: %w", err)
	}
	p, err := NewTruncGumbelParams(eps, emb.Len(), dmin, maxDistanceBound(emb))
	if err != nil {
		return nil, fmt.Errorf("truncgumbel: %w", err)
	}
	return &TruncGumbel{emb: emb, P: p}, nil
}

// exactDiameterMax: up to this many words the diameter is computed
// exactly (N²/2 distances).
const exactDiameterMax = 4096

// minDistance is the smallest distance between two distinct words.
func minDistance(emb *Embedding) (float64, error) {
	n, d := emb.Len(), emb.Dim()
	const chunk = 1024
	out := make([]euclid.Neighbor, 2*chunk)
	qs := make([]float32, 0, chunk*d)
	best := math.Inf(1)
	for start := 0; start < n; start += chunk {
		m := min(chunk, n-start)
		qs = qs[:0]
		for w := start; w < start+m; w++ {
			qs = append(qs, emb.Vector(w)...)
		}
		if err := emb.Index().NearestBatch(qs, 2, out[:2*m], 0); err != nil {
			return 0, fmt.Errorf("nearest neighbours of the vocabulary: %w", err)
		}
		for i := range m {
			// The query is one of its own two nearest (at distance 0);
			// the other is its nearest distinct word. A duplicate vector
			// with a lower id can come first: both are at distance 0
			// then, and Δmin = 0 is refused by NewTruncGumbelParams.
			nb := out[2*i : 2*i+2]
			o := nb[1]
			if int(nb[0].ID) != start+i {
				o = nb[0]
			}
			best = min(best, o.Dist)
		}
	}
	return best, nil
}

// maxDistanceBound is the exact diameter for small vocabularies and the
// triangle-inequality bound 2·max_w ‖φ(w) − φ(0)‖ otherwise.
func maxDistanceBound(emb *Embedding) float64 {
	n := emb.Len()
	var m float64
	if n <= exactDiameterMax {
		for i := range n {
			for j := i + 1; j < n; j++ {
				m = max(m, euclid.Dist(emb.Vector(i), emb.Vector(j)))
			}
		}
		return m
	}
	for w := range n {
		m = max(m, euclid.Dist(emb.Vector(w), emb.Vector(0)))
	}
	return 2 * m
}

// Epsilon implements mechanism.Mechanism (the ε the calibration targets).
func (m *TruncGumbel) Epsilon() float64 { return m.P.Epsilon }

// Len implements mechanism.Mechanism.
func (m *TruncGumbel) Len() int { return m.emb.Len() }

// Metric implements mechanism.Mechanism; the claim is labelled as such.
func (m *TruncGumbel) Metric() string { return "claimed euclidean (not established)" }

func (m *TruncGumbel) check(w int, src rand.Source) error {
	if w < 0 || w >= m.emb.Len() {
		return fmt.Errorf("truncgumbel: %w: %d not in [0, %d)", mechanism.ErrWordOutOfRange, w, m.emb.Len())
	}
	if src == nil {
		return fmt.Errorf("truncgumbel: %w", mechanism.ErrNilSource)
	}
	return nil
}

// choose adds truncated Gumbel noise to the candidates' distances, in
// order, and returns the one with the smallest noisy distance.
func (m *TruncGumbel) choose(nb []euclid.Neighbor, src rand.Source) int {
	best, arg := math.Inf(1), int(nb[0].ID)
	for _, c := range nb {
		if v := c.Dist + m.P.noise(src); v < best {
			best, arg = v, int(c.ID)
		}
	}
	return arg
}

// Privatize releases one word for w.
func (m *TruncGumbel) Privatize(w int, src rand.Source) (int, error) {
	if err := m.check(w, src); err != nil {
		return -1, err
	}
	k := m.P.candidates(src)
	if k == 0 {
		return w, nil
	}
	nb, err := m.emb.Index().Nearest(m.emb.Vector(w), k, nil)
	if err != nil {
		return -1, fmt.Errorf("truncgumbel: candidates: %w", err)
	}
	return m.choose(nb, src), nil
}

// Batch sizes: a chunk of words shares one batched search for up to
// batchK candidates; a word that drew more is searched on its own, so the
// memory of a batch is bounded (chunk·batchK neighbours plus one N-sized
// search) whatever K comes out.
const (
	truncGumbelChunk  = 256
	truncGumbelBatchK = 64
)

// PrivatizeBatch implements Batcher. Per chunk of words, the candidate
// counts are drawn from src in input order, the searches run on workers
// goroutines, then the noise is drawn in input order: a seeded source
// gives the same output for any worker count.
func (m *TruncGumbel) PrivatizeBatch(ws []int, out []int, src rand.Source, workers int) error {
	fail := func(err error) error {
		for i := range out {
			out[i] = -1
		}
		return err
	}
	if len(out) != len(ws) {
		return fail(fmt.Errorf("truncgumbel: %w: %d outputs for %d words", ErrInvalidParameter, len(out), len(ws)))
	}
	for _, w := range ws {
		if err := m.check(w, src); err != nil {
			return fail(err)
		}
	}
	d := m.emb.Dim()
	ks := make([]int, truncGumbelChunk)
	qs := make([]float32, 0, truncGumbelChunk*d)
	var nb []euclid.Neighbor
	for start := 0; start < len(ws); start += truncGumbelChunk {
		chunk := ws[start:min(len(ws), start+truncGumbelChunk)]
		kb := 1
		for j := range chunk {
			ks[j] = m.P.candidates(src)
			if ks[j] <= truncGumbelBatchK {
				kb = max(kb, ks[j])
			}
		}
		kb = min(kb, m.emb.Len())
		qs = qs[:0]
		for _, w := range chunk {
			qs = append(qs, m.emb.Vector(w)...)
		}
		if cap(nb) < len(chunk)*kb {
			nb = make([]euclid.Neighbor, len(chunk)*kb)
		}
		nb = nb[:len(chunk)*kb]
		if err := m.emb.Index().NearestBatch(qs, kb, nb, workers); err != nil {
			return fail(fmt.Errorf("truncgumbel: candidates: %w", err))
		}
		for j, w := range chunk {
			k := ks[j]
			switch {
			case k == 0:
				out[start+j] = w
			case k <= kb:
				// The k nearest are a prefix of the kb nearest: the order
				// (distance, then id) is the same for every k.
				out[start+j] = m.choose(nb[j*kb:j*kb+k], src)
			default:
				big, err := m.emb.Index().Nearest(m.emb.Vector(w), k, nil)
				if err != nil {
					return fail(fmt.Errorf("truncgumbel: candidates: %w", err))
				}
				out[start+j] = m.choose(big, src)
			}
		}
	}
	return nil
}
