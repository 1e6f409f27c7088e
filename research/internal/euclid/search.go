package euclid

import (
	"math"
	"math/bits"
)

// filterSlack is how far above the k-th smallest filter score a row's score
// may lie and the row still be among the exact k nearest. Proof sketch, with
// u = 2^-24, n = dim, Q ≥ ‖q‖, M ≥ max‖y‖ and s_y the kernel's float32 score
// for ‖y‖² − 2q·y:
//
//   - The kernel starts from fl32(‖y‖²) (error ≤ u·M²) and adds the n exact
//     products (−2q_k)·y_k one at a time (×−2 is exact), with one rounding per
//     step (FMA) or two (no FMA). The classic bound for such a recursive sum
//     is γ_{n+1}·(‖y‖² + 2Σ|q_k y_k|) ≤ 1.05(n+3)u·(M² + 2QM) (Cauchy–Schwarz,
//     and γ_m = mu/(1−mu) ≤ 1.05mu while mu ≤ 0.05). Subnormal results add at
//     most 2^-149 per step. So |s_y − (‖y‖² − 2q·y)| ≤ e32.
//   - Dist squares float64 differences of float32 values (relative error
//     ≤ 2^-53 each, squared 2·2^-53) and sums n terms, so the float64 sum F_y
//     that Dist takes the root of is within (n+3)·2^-53·(Q+M)² =: e64 of the
//     real ‖q−y‖² = ‖q‖² + ‖y‖² − 2q·y. Hence |s_y − (F_y − ‖q‖²)| ≤ e := e32+e64.
//   - Let S be the k-th smallest score over all rows. Those k rows have
//     F ≤ S + ‖q‖² + e =: G, so every row ranked in the top k by (Dist, id)
//     has sqrt64(F_y) ≤ sqrt64(F_z) for some F_z ≤ G; the correctly rounded
//     root can merge values at most 2^-51 apart relatively, so F_y ≤ G(1+2^-51)
//     and s_y ≤ F_y − ‖q‖² + e ≤ S + 2e + 2^-51·G, with G ≤ (Q+M)² + e.
//
// The scan keeps every row whose score is ≤ (k-th smallest score so far) +
// slack; the k-th smallest so far never falls below S, so no row of the answer
// is ever dropped. The slack returned is 1.25 × (2e + 2^-50(Q+M)²). It scales
// with ‖q‖·M, not only with the rows' norms: far (noisy) queries with ‖q‖ in
// the hundreds need it. The caller keeps (Q+M)² ≤ 1e36 so nothing overflows.
func filterSlack(qn, maxNorm float64, dim int) float64 {
	const u = 0x1p-24
	n := float64(dim)
	m2 := maxNorm * maxNorm
	e32 := 1.05*(n+3)*u*(m2+2*qn*maxNorm) + u*m2 + (n+2)*0x1p-149
	r2 := (qn + maxNorm) * (qn + maxNorm)
	e64 := (n + 3) * 0x1p-53 * r2
	return 1.25 * (2*(e32+e64) + 0x1p-50*r2)
}

// searcher collects one query's candidates during a scan.
type searcher struct {
	k     int
	slack float64
	brute bool      // answer by exact scan (filter could overflow)
	heap  []float32 // max-heap of the k smallest scores seen
	thr   float32   // keep scores ≤ thr: heap top + slack, rounded up
	cands []cand
	limit int        // prune cands when they grow past this
	exact []Neighbor // finish's scratch
}

type cand struct {
	id int32
	s  float32
}

func (st *searcher) reset(k int) {
	st.k, st.brute, st.slack = k, false, 0
	st.heap = st.heap[:0]
	st.cands = st.cands[:0]
	st.limit = 4*k + 512
	st.thr = float32(math.Inf(1))
}

// scan offers scores[i] as the score of row base+i.
func (st *searcher) scan(scores []float32, base int) {
	thr := st.thr
	for i, s := range scores {
		if s <= thr {
			st.add(int32(base+i), s)
			thr = st.thr
		}
	}
}

// scanMasks is scan given masks whose bit i%64 of masks[i/64] is set for
// every i with scores[i] <= the threshold when the kernel ran (which is ≥ the
// current one), so only those rows need looking at.
func (st *searcher) scanMasks(scores []float32, masks []uint64, base int) {
	n := len(scores)
	for g, m := range masks {
		if g*groupRows+groupRows > n {
			if g*groupRows >= n {
				break
			}
			m &= 1<<(n-g*groupRows) - 1 // padding rows
		}
		for m != 0 {
			i := g*groupRows + bits.TrailingZeros64(m)
			m &= m - 1
			if s := scores[i]; s <= st.thr {
				st.add(int32(base+i), s)
			}
		}
	}
}

func (st *searcher) add(id int32, s float32) {
	st.cands = append(st.cands, cand{id, s})
	h := st.heap
	switch {
	case len(h) < st.k:
		h = append(h, s)
		for i := len(h) - 1; i > 0; { // sift up
			p := (i - 1) / 2
			if h[p] >= h[i] {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		st.heap = h
		if len(h) < st.k {
			return
		}
	case s < h[0]:
		h[0] = s
		for i := 0; ; { // sift down
			c := 2*i + 1
			if c >= len(h) {
				break
			}
			if c+1 < len(h) && h[c+1] > h[c] {
				c++
			}
			if h[i] >= h[c] {
				break
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	default:
		return
	}
	t := float64(h[0]) + st.slack
	thr := float32(t)
	if float64(thr) < t {
		thr = math.Nextafter32(thr, float32(math.Inf(1)))
	}
	st.thr = thr
	if len(st.cands) > st.limit {
		st.prune()
		// Amortized: with many near-ties most candidates survive, and
		// pruning again at once would make the scan quadratic.
		st.limit = max(st.limit, 2*len(st.cands))
	}
}

func (st *searcher) prune() {
	c := st.cands[:0]
	for _, e := range st.cands {
		if e.s <= st.thr {
			c = append(c, e)
		}
	}
	st.cands = c
}

// finish computes the candidates' exact distances and appends the k nearest,
// sorted by (Dist, id), to dst.
func (st *searcher) finish(x *Index, q []float32, dst []Neighbor) []Neighbor {
	all := st.exact[:0]
	if st.brute {
		for i := range x.Len() {
			all = append(all, Neighbor{int32(i), Dist(q, x.Row(i))})
		}
	} else {
		st.prune()
		for _, c := range st.cands {
			all = append(all, Neighbor{c.id, Dist(q, x.Row(int(c.id)))})
		}
	}
	st.exact = all
	sortNeighbors(all)
	return append(dst, all[:st.k]...)
}
