package hamming

// topK collects the codes whose distance is at most the k-th smallest seen so
// far. Distances are small integers, so a histogram keeps the threshold exact
// in O(1) amortised per admitted code, ties included.
type topK struct {
	k     int
	thr   int // admit distances <= thr
	n     int // admitted codes with distance <= thr
	hist  [Bits + 1]int32
	items []Neighbor
}

func (t *topK) reset(k int, buf []Neighbor) {
	t.k, t.thr, t.n = k, Bits, 0
	t.hist = [Bits + 1]int32{}
	t.items = buf[:0]
}

// add admits a code; the caller has checked d <= t.thr.
func (t *topK) add(id int32, d int) {
	t.items = append(t.items, Neighbor{ID: id, Dist: int32(d)})
	t.hist[d]++
	t.n++
	// The threshold can only drop once k codes lie strictly below it.
	if t.n-int(t.hist[t.thr]) >= t.k {
		t.shrink()
	}
}

func (t *topK) shrink() {
	c, nt := 0, t.thr
	for d := 0; d <= t.thr; d++ {
		c += int(t.hist[d])
		if c >= t.k {
			nt = d
			break
		}
	}
	for d := nt + 1; d <= t.thr; d++ {
		t.n -= int(t.hist[d])
		t.hist[d] = 0
	}
	t.thr = nt
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
		SortNeighbors(out)
		below := len(out) - int(t.hist[t.thr])
		tied := out[below:]
		need := t.k - below
		for i := 0; i < need; i++ {
			j := i + uniform(opt.Rand, len(tied)-i)
			tied[i], tied[j] = tied[j], tied[i]
		}
		out = out[:t.k]
	}
	SortNeighbors(out)
	return out
}
