package wva

import (
	"math"
	"slices"

	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// Building the in-memory TEM lists from the upper triangle of the ball
// relation, the form the file stores: each unordered pair {w, i}, w < i,
// once. Every word's entries must end up sorted by (distance, id). This is
// most of Decode's time, so entries are placed by counting sorts rather
// than sorted per word.

// countingMax is the largest maxSteps for which entries are bucketed by
// distance; above it, per-word comparison sorts are used instead, so a
// huge maxSteps cannot force a huge bucket array.
const countingMax = 1 << 16

// triangle is the upper triangle: word w's pairs {w, i}, i > w, are
// ids[off[w]:off[w+1]] (increasing) with distances dists[off[w]:off[w+1]].
// deg and dcount are tallied while it is filled.
type triangle struct {
	off    []uint32
	ids    []uint32
	dists  []uint32
	deg    []uint32 // deg[w] = |L_w| − 1, both directions counted
	dcount []uint32 // directed entries per distance; nil if maxSteps ≥ countingMax
}

// newTriangle returns an empty triangle for n words with room for capPairs
// pairs (a hint, already bounded by the caller's input).
func newTriangle(n int, maxSteps uint32, capPairs uint64) *triangle {
	t := &triangle{
		off:   make([]uint32, 1, n+1),
		ids:   make([]uint32, 0, capPairs),
		dists: make([]uint32, 0, capPairs),
		deg:   make([]uint32, n),
	}
	if maxSteps < countingMax {
		t.dcount = make([]uint32, maxSteps+1)
	}
	return t
}

// add appends pair {w, i} at distance d. Callers add words in increasing w
// and, within a word, increasing i > w, with i < n and d ≤ maxSteps
// checked; ids strictly increase within a word, so no degree exceeds n−1.
func (t *triangle) add(w, i, d uint32) {
	t.ids = append(t.ids, i)
	t.dists = append(t.dists, d)
	t.deg[w]++
	t.deg[i]++
	if t.dcount != nil {
		t.dcount[d] += 2
	}
}

// endWord closes the current word's run of pairs.
func (t *triangle) endWord() { t.off = append(t.off, uint32(len(t.ids))) }

func (t *triangle) pairs() uint64 { return uint64(len(t.ids)) }

// assemble builds TEMLists from a complete triangle (endWord called n
// times). errf reports impossible sizes; the triangle is trusted otherwise.
//
// Order argument: visiting the pairs in (w, i) order and emitting both
// directions gives every word t its entries in increasing id — first its
// smaller neighbours x < t (met while w = x, increasing), then its larger
// ones (met while w = t, increasing). Stable bucketing by distance and then
// by word therefore leaves each word's entries sorted by (distance, id).
func assemble(part string, n int, step float64, maxSteps uint32, tri *triangle,
	errf func(part, format string, args ...any) error) (*TEMLists, error) {
	if 2*tri.pairs() > math.MaxUint32 {
		return nil, errf(part, "%d pairs: more than 2^32-1 entries", tri.pairs())
	}
	start := make([]uint32, n+1)
	for w, d := range tri.deg {
		start[w+1] = start[w] + d // total is 2·pairs, checked above
	}
	idBits := bitpack.Width(uint64(max(n, 1) - 1))
	distBits := bitpack.Width(uint64(maxSteps))
	if idBits+distBits > bitpack.MaxArrayWidth {
		// Unreachable within MaxWords; checked so the packing cannot panic.
		return nil, errf(part, "%d-bit ids and %d-bit distances exceed %d bits", idBits, distBits, bitpack.MaxArrayWidth)
	}
	t := &TEMLists{n: n, step: step, maxSteps: maxSteps, start: start, idBits: idBits, pairs: tri.pairs()}
	switch {
	case tri.dcount == nil:
		placeSorted(t, tri)
	case 2*idBits <= 32:
		// Word and id fit one 32-bit scratch word (the default asset:
		// 16-bit ids), halving the bucket array.
		placeCounted[uint32](t, tri)
	default:
		placeCounted[uint64](t, tri)
	}
	return t, nil
}

// placeCounted buckets the directed entries by distance (E packs word and
// id), then distributes the buckets, in distance order, to the words'
// slots in the packed entry array.
func placeCounted[E uint32 | uint64](t *TEMLists, tri *triangle) {
	n, start, idBits := t.n, t.start, t.idBits
	dstart := make([]uint32, len(tri.dcount)+1)
	for d, k := range tri.dcount {
		dstart[d+1] = dstart[d] + k
	}
	byD := make([]E, start[n])
	next := dstart[:len(tri.dcount):len(tri.dcount)]
	next = slices.Clone(next)
	for w := 0; w < n; w++ {
		for k := tri.off[w]; k < tri.off[w+1]; k++ {
			i, d := tri.ids[k], tri.dists[k]
			p := next[d]
			byD[p] = E(w)<<idBits | E(i)
			byD[p+1] = E(i)<<idBits | E(w)
			next[d] = p + 2
		}
	}
	entries := bitpack.NewBuilder(int(start[n]), idBits+bitpack.Width(uint64(t.maxSteps)))
	slot := slices.Clone(start[:n])
	idMask := E(1)<<idBits - 1
	for d := range tri.dcount {
		for _, e := range byD[dstart[d]:dstart[d+1]] {
			w := e >> idBits
			entries.Set(int(slot[w]), uint64(d)<<idBits|uint64(e&idMask))
			slot[w]++
		}
	}
	t.entries = entries.Array()
}

// placeSorted distributes the entries to their words' slots (arriving in
// id order) and sorts each word's slots by (distance, id).
func placeSorted(t *TEMLists, tri *triangle) {
	n, start, idBits := t.n, t.start, t.idBits
	keys := make([]uint64, start[n])
	slot := slices.Clone(start[:n])
	for w := 0; w < n; w++ {
		for k := tri.off[w]; k < tri.off[w+1]; k++ {
			i, d := tri.ids[k], uint64(tri.dists[k])<<idBits
			keys[slot[w]] = d | uint64(i)
			slot[w]++
			keys[slot[i]] = d | uint64(w)
			slot[i]++
		}
	}
	ap := bitpack.NewAppender(len(keys), idBits+bitpack.Width(uint64(t.maxSteps)))
	for w := 0; w < n; w++ {
		run := keys[start[w]:start[w+1]]
		slices.Sort(run)
		for _, k := range run {
			ap.Append(k)
		}
	}
	t.entries = ap.Array()
}
