package hamming

import (
	"math/bits"
	"sync"

	"github.com/bits-and-blooms/bitset"
)

// Multi-index hashing splits each code into m = 16 disjoint substrings of 16
// bits and keeps one table per substring. If two codes are within distance
// r = 16·s + a (0 ≤ a < 16), then by the pigeonhole principle one of the
// first a+1 substrings differs in at most s bits, or one of the others in at
// most s−1 bits (otherwise the distance would be at least
// (a+1)(s+1) + (15−a)s = r+1). Probing every key within those radii and
// verifying the full distance therefore finds every code within r: the
// search is exact. m = 16 is Norouzi et al.'s b/log2(N) for N near 2^16,
// the database sizes WordVeil ships (50k-200k words).
const (
	substrings = 16
	subBits    = 16
	buckets    = 1 << subBits
)

// mih is a multi-index hashing index (Norouzi, Punjani and Fleet, "Fast
// Search in Hamming Space with Multi-Index Hashing", CVPR 2012). Its cost
// grows with the search radius, not with N: it wins for small radii and
// loses to a scan beyond roughly 40 bits.
//
// Memory: 16 tables of 65,537 bucket offsets plus N ids each, and a copy
// of the codes split by word: about 4.2 MB + 96·N bytes (9 MB at N = 50k).
type mih struct {
	codes []Code
	// words[w][i] is word w of code i: the codes again, one array per
	// 64-bit word, so that verification can reject a candidate from one
	// word (a quarter of the footprint, mostly in L2) before touching the
	// rest of its code.
	words [4][]uint64
	off   [substrings][]uint32 // bucket b of table j holds ids[j][off[j][b]:off[j][b+1]]
	ids   [substrings][]uint32
	pool  sync.Pool // *mihScratch
}

type mihScratch struct {
	seen    *bitset.BitSet // ids already gathered in this query
	words   []uint64       // seen's backing words, for an inlined test-and-set
	touched []uint32       // ids to verify (and to clear from seen afterwards)
	spans   []span         // bucket bounds read ahead of the bucket walk
}

// span is one bucket's slice of a table's ids; w is the bucket key's
// distance from the query's substring.
type span struct {
	j, w   int32
	lo, hi uint32
}

// newMIH builds the tables (a counting sort per substring, O(16·(N+65536))).
// The slice is used in place: the caller must not modify it afterwards.
func newMIH(codes []Code) (*mih, error) {
	if len(codes) > maxCodes {
		return nil, ErrTooLarge
	}
	m := &mih{codes: codes}
	for w := range m.words {
		m.words[w] = make([]uint64, len(codes))
		for i := range codes {
			m.words[w][i] = codes[i][w]
		}
	}
	for j := 0; j < substrings; j++ {
		off := make([]uint32, buckets+1)
		for i := range codes {
			off[substring(&codes[i], j)+1]++
		}
		for b := 1; b <= buckets; b++ {
			off[b] += off[b-1]
		}
		ids := make([]uint32, len(codes))
		fill := make([]uint32, buckets)
		copy(fill, off[:buckets])
		for i := range codes {
			k := substring(&codes[i], j)
			ids[fill[k]] = uint32(i)
			fill[k]++
		}
		m.off[j], m.ids[j] = off, ids
	}
	n := uint(len(codes))
	m.pool.New = func() any {
		b := bitset.New(n)
		return &mihScratch{seen: b, words: b.Words()}
	}
	return m, nil
}

// Len returns the number of codes.
func (m *mih) Len() int { return len(m.codes) }

func substring(c *Code, j int) uint32 {
	return uint32(c[j>>2]>>(subBits*(uint(j)&3))) & (buckets - 1)
}

// maskStart[w] is where the 16-bit masks of weight w begin in masks():
// the number of masks of weight below w, a sum of binomial coefficients.
var maskStart = func() (start [subBits + 2]int) {
	c := 1 // C(subBits, w)
	for w := 0; w <= subBits; w++ {
		start[w+1] = start[w] + c
		c = c * (subBits - w) / (w + 1)
	}
	return start
}()

// masks lists every 16-bit mask ordered by popcount, masks of weight w
// from maskStart[w] on. Probing key^mask for the masks of weight w visits
// every bucket at distance exactly w from key. Made on first use (128 KiB,
// 65,536 popcounts): only multi-index hashing needs it, so a process that
// never searches near (BRR, the list mechanisms) does not pay for it at
// start-up.
var masks = sync.OnceValue(func() []uint16 {
	out := make([]uint16, buckets)
	fill := maskStart
	for v := 0; v < buckets; v++ {
		w := bits.OnesCount16(uint16(v))
		out[fill[w]] = uint16(v)
		fill[w]++
	}
	return out
})

// masksOfWeight returns the number of 16-bit masks of popcount w.
func masksOfWeight(w int) int { return maskStart[w+1] - maskStart[w] }

// ballKeys returns how many 16-bit keys lie within distance s (0 for s < 0).
func ballKeys(s int) int {
	if s < 0 {
		return 0
	}
	return maskStart[min(s, subBits)+1]
}

// rangeRadii returns the per-substring probe radius for a range search of
// radius r (see the pigeonhole argument at the top of this file).
func rangeRadii(r int) (s, a int) {
	r = min(r, Bits)
	return r / substrings, r % substrings
}

func (m *mih) scratch() *mihScratch { return m.pool.Get().(*mihScratch) }

func (m *mih) release(sc *mihScratch) {
	for _, id := range sc.touched {
		sc.seen.Clear(uint(id))
	}
	sc.touched = sc.touched[:0]
	m.pool.Put(sc)
}

// addSpans reads the bounds of the buckets key^mask of table j for every
// mask. Reading all bounds before walking any bucket keeps these loads
// independent, so the CPU overlaps their cache misses instead of chaining
// them (offset line, then bucket, then code).
func (m *mih) addSpans(sc *mihScratch, j int, key uint32, ms []uint16) {
	off := m.off[j]
	for _, mask := range ms {
		k := key ^ uint32(mask)
		sc.spans = append(sc.spans, span{int32(j), int32(bits.OnesCount16(mask)), off[k], off[k+1]})
	}
}

// gather appends to sc.touched every id in sc.spans not yet gathered in this
// query, empties sc.spans, and returns the number of bucket entries read.
// Verifying only after gathering lets the random loads of codes overlap too.
func (m *mih) gather(sc *mihScratch) int {
	words, n := sc.words, 0
	for _, sp := range sc.spans {
		n += int(sp.hi - sp.lo)
		for _, id := range m.ids[sp.j][sp.lo:sp.hi] {
			w, bit := id>>6, uint64(1)<<(id&63)
			if words[w]&bit != 0 {
				continue
			}
			words[w] |= bit
			sc.touched = append(sc.touched, id)
		}
	}
	sc.spans = sc.spans[:0]
	return n
}

// Range appends to dst[:0] every code within distance r of q, in no
// particular order.
func (m *mih) Range(dst []Neighbor, q Code, r int, opt Options) ([]Neighbor, error) {
	if r < 0 {
		return dst[:0], ErrInvalidRadius
	}
	sc := m.scratch()
	defer m.release(sc)
	m.rangeSpans(sc, &q, r)
	return m.rangeVerify(sc, dst, q, r, opt, nil), nil
}

// rangeSpans fills sc.spans with every bucket a range search of radius r
// must visit (see the pigeonhole argument at the top of this file) and
// returns how many entries they hold, duplicates included. It reads only
// bucket bounds, so the planner can afford it before deciding.
func (m *mih) rangeSpans(sc *mihScratch, q *Code, r int) (entries int) {
	s, a := rangeRadii(r)
	for j := 0; j < substrings; j++ {
		rj := s
		if j > a {
			rj = s - 1
		}
		m.addSpans(sc, j, substring(q, j), masks()[:ballKeys(rj)])
	}
	for _, sp := range sc.spans {
		entries += int(sp.hi - sp.lo)
	}
	return entries
}

// rangeVerify visits the buckets rangeSpans chose and keeps the codes within
// r, except those in skip (ascending) and opt.Exclude. Almost every
// candidate fails the distance test (at r = 16 on 200k word codes: ~200
// candidates for ~1 result), so each entry is verified straight from its
// bucket and only the codes that pass go through the seen-set, which
// removes duplicates (a code can sit in several probed buckets), and are
// looked up in skip.
func (m *mih) rangeVerify(sc *mihScratch, dst []Neighbor, q Code, r int, opt Options, skip []int32) []Neighbor {
	out := dst[:0]
	words := sc.words
	for _, sp := range sc.spans {
		// Lower bound from the probed word alone: the bucket's key differs
		// from the query's substring in sp.w bits, and the other 48 bits
		// of that word add their own differences.
		g := sp.j >> 2
		qw, rest := q[g], ^(uint64(buckets-1) << (subBits * (uint(sp.j) & 3)))
		ws := m.words[g]
		for _, id := range m.ids[sp.j][sp.lo:sp.hi] {
			if int(sp.w)+bits.OnesCount64((ws[id]^qw)&rest) > r {
				continue
			}
			d := Distance(q, m.codes[id])
			if d > r {
				continue
			}
			w, bit := id>>6, uint64(1)<<(id&63)
			if words[w]&bit != 0 {
				continue
			}
			words[w] |= bit
			sc.touched = append(sc.touched, id)
			if opt.Exclude != nil && opt.Exclude.Test(uint(id)) || isSkipped(skip, id) {
				continue
			}
			out = append(out, Neighbor{ID: int32(id), Dist: int32(d)})
		}
	}
	sc.spans = sc.spans[:0]
	return out
}

// probeCount is how many buckets a range search of radius r visits; it needs
// no tables, so it alone can rule MIH out before any table is built.
func probeCount(r int) int {
	s, a := rangeRadii(r)
	return (a+1)*ballKeys(s) + (substrings-a-1)*ballKeys(s-1)
}

// budgetError tells the planner that a k-NN search outgrew its budget.
type budgetError struct{}

func (budgetError) Error() string { return "hamming: MIH work budget exceeded" }

// KNN appends to dst[:0] the k nearest codes to q, sorted by (distance, id).
// It grows the search radius one substring at a time and stops as soon as
// the k-th distance found is covered by the radius already searched.
func (m *mih) KNN(dst []Neighbor, q Code, k int, opt Options) ([]Neighbor, error) {
	if err := checkKNN(k, &opt); err != nil {
		return dst[:0], err
	}
	sc := m.scratch()
	defer m.release(sc)
	return m.knn(sc, -1, dst, q, k, opt, 0, nil)
}

// knn is the k-NN search. If warm ≥ 0, sc.spans already holds the buckets
// of a range search of radius warm (the planner's count, rangeSpans); they
// are visited first and the incremental search resumes where that radius
// leaves off, so the planner's reads are never repeated. With budget > 0
// (ns), it gives up with budgetError once its work passes the budget, so the
// planner can switch to a scan. The codes in skip (ascending) are never
// returned.
func (m *mih) knn(sc *mihScratch, warm int, dst []Neighbor, q Code, k int, opt Options, budget float64, skip []int32) ([]Neighbor, error) {
	var t topK
	t.reset(k, dst)
	if len(m.codes) == 0 {
		return t.finish(&opt), nil
	}
	cv := verifyCost(len(m.codes))
	s0, j0, work, verified := 0, 0, 0.0, 0
	if warm >= 0 {
		entries := m.gather(sc)
		verified = m.verifyKNN(&t, sc, 0, q, &opt, skip)
		work = float64(probeCount(warm))*costProbe + float64(entries)*cv
		if t.full() && t.thr <= warm || verified == len(m.codes) {
			return t.finish(&opt), nil
		}
		// The warm range covered steps (s', j) for s' < s and (s, j ≤ a).
		var a int
		s0, a = rangeRadii(warm)
		if j0 = a + 1; j0 == substrings {
			s0, j0 = s0+1, 0
		}
	}
	var keys [substrings]uint32
	for j := range keys {
		keys[j] = substring(&q, j)
	}
	for s := s0; s <= subBits; s++ {
		for j := j0; j < substrings; j++ {
			m.addSpans(sc, j, keys[j], masks()[maskStart[s]:maskStart[s+1]])
			entries := m.gather(sc)
			verified = m.verifyKNN(&t, sc, verified, q, &opt, skip)
			work += float64(masksOfWeight(s))*costProbe + float64(entries)*cv
			// Every code within 16·s + j has now been seen.
			covered := substrings*s + j
			if t.full() && t.thr <= covered || verified == len(m.codes) {
				return t.finish(&opt), nil // k found, or every code seen
			}
			if budget > 0 && work > budget {
				return dst[:0], budgetError{}
			}
		}
		j0 = 0
	}
	return t.finish(&opt), nil
}

// verifyKNN offers the gathered ids from sc.touched[from:] to t, except
// those in opt.Exclude or skip, and returns how many ids have now been
// offered. skip is searched only for the few ids close enough to enter t.
func (m *mih) verifyKNN(t *topK, sc *mihScratch, from int, q Code, opt *Options, skip []int32) int {
	for _, id := range sc.touched[from:] {
		if opt.Exclude != nil && opt.Exclude.Test(uint(id)) {
			continue
		}
		if d := Distance(q, m.codes[id]); d <= t.thr && !isSkipped(skip, id) {
			t.add(int32(id), d)
		}
	}
	return len(sc.touched)
}

// skippedEntries counts the entries of sc.spans (the buckets rangeSpans
// chose for radius r, entries in all) that belong to codes in skip
// (ascending), whichever way costs less: per skipped code, whose bucket
// of table j is visited exactly when its substring j lies within that
// table's probe radius of the query's (rangeSpans' rule); or per entry,
// looking each up in skip.
func (m *mih) skippedEntries(sc *mihScratch, q *Code, r, entries int, skip []int32) int {
	n := 0
	if len(skip)*substrings <= entries {
		s, a := rangeRadii(r)
		for _, id := range skip {
			c := &m.codes[id]
			for j := 0; j < substrings; j++ {
				rj := s
				if j > a {
					rj = s - 1
				}
				if bits.OnesCount32(substring(c, j)^substring(q, j)) <= rj {
					n++
				}
			}
		}
		return n
	}
	for _, sp := range sc.spans {
		for _, id := range m.ids[sp.j][sp.lo:sp.hi] {
			if isSkipped(skip, id) {
				n++
			}
		}
	}
	return n
}
