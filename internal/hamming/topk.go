package hamming

import "github.com/wordveil/wordveil/internal/sample"

// topK collects the codes whose distance is at most the k-th smallest seen so
// far. Distances are small integers, so a histogram keeps the threshold exact
// in O(1) amortised per admitted code, ties included.
type topK struct {
	k     int
	thr   int // admit distances <= thr
	n     int // admitted codes with distance <= thr
	top   int // largest distance admitted so far
	hist  [Bits + 1]int32
	items []Neighbor
}

func (t *topK) reset(k int, buf []Neighbor) {
	t.k, t.thr, t.n, t.top = k, Bits, 0, 0
	t.hist = [Bits + 1]int32{}
	t.items = buf[:0]
}

// add admits a code; the caller has checked d <= t.thr.
func (t *topK) add(id int32, d int) {
	t.items = append(t.items, Neighbor{ID: id, Dist: int32(d)})
	t.hist[d]++
	t.n++
	t.top = max(t.top, d)
	// The threshold can only drop once k codes lie strictly below it.
	if t.n-int(t.hist[t.thr]) >= t.k {
		t.shrink()
	}
}

// shrink lowers thr while the codes strictly below it still number k or
// more. Walking down from the top costs O(1) amortised per admitted code:
// each histogram bucket is dropped at most once. Nothing was admitted above
// top, so the walk can start there.
func (t *topK) shrink() {
	t.thr = min(t.thr, t.top)
	for t.n-int(t.hist[t.thr]) >= t.k {
		t.n -= int(t.hist[t.thr])
		t.hist[t.thr] = 0
		t.thr--
	}
	if len(t.items) > 2*t.n+64 {
		t.compact()
	}
}

func (t *topK) compact() {
	j := 0
	for _, it := range t.items {
		if int(it.Dist) <= t.thr {
			t.items[j] = it
			j++
		}
	}
	t.items = t.items[:j]
}

// full reports whether k codes at distance <= thr have been admitted, so thr
// is the true k-th distance of everything seen.
func (t *topK) full() bool { return t.n >= t.k }

// finish returns the result sorted by (distance, id), applying the tie rule.
func (t *topK) finish(opt *Options) []Neighbor {
	t.compact()
	out := t.items
	if opt.Ties == TiesRandom && len(out) > t.k {
		// Move a uniform random subset of the codes tied at thr into the
		// kept prefix: partial Fisher-Yates over the tied block.
		sortNeighbors(out)
		below := len(out) - int(t.hist[t.thr])
		tied := out[below:]
		need := t.k - below
		for i := 0; i < need; i++ {
			j := i + sample.UniformInt(opt.Rand, len(tied)-i)
			tied[i], tied[j] = tied[j], tied[i]
		}
		out = out[:t.k]
	}
	sortNeighbors(out)
	return out
}
