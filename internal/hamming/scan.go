package hamming

import "github.com/wordveil/wordveil/internal/sample"

// scan searches by comparing the query with every code, one kernel block at a
// time. Its cost is N distance computations whatever the radius, which makes
// it the right choice for far queries (BRR's noisy codes lie ~90-100 bits from
// everything) and for small databases.
//
// A scan made for Index.Without also holds the ids it skips: the kernels
// still compute every distance, and each block's skipped codes are then
// given the distance skippedDist (maskSkipped), which no search admits.
type scan struct {
	codes []Code
	skip  []int32 // ids never returned, ascending and distinct (see skip.go)
	// skipCodes holds the codes of skip, in its order (nil when nothing
	// is skipped): the histogram takes them off (Histogram.fill).
	skipCodes []Code
	// ends[g] ends Nearest's g-th block (nil when nothing is skipped):
	// see blockEnds.
	ends []int32
}

// newScan returns a scan over codes. The slice is used in place, not copied:
// the caller must not modify it while the Scan is in use.
func newScan(codes []Code) (*scan, error) {
	if len(codes) > maxCodes {
		return nil, ErrTooLarge
	}
	return &scan{codes: codes}, nil
}

const maxCodes = 1<<31 - 1

// Len returns the number of codes searched (the skipped ones left out).
func (s *scan) Len() int { return len(s.codes) - len(s.skip) }

// KNN appends to dst[:0] the k nearest codes to q, sorted by (distance, id),
// with ties handled as opt.Ties says.
func (s *scan) KNN(dst []Neighbor, q Code, k int, opt Options) ([]Neighbor, error) {
	if err := checkKNN(k, &opt); err != nil {
		return dst[:0], err
	}
	var t topK
	t.reset(k, dst)
	var buf [blockSize]uint16
	codes, skip := s.codes, s.skip
	for base := 0; base < len(codes); base += blockSize {
		blk := codes[base:min(base+blockSize, len(codes))]
		// The block's minimum counts skipped codes too: a lower bound,
		// enough to pass over the block.
		skip = skipFrom(skip, base)
		if distBlock(&q, blk, buf[:]) > t.thr {
			continue
		}
		ds := buf[:len(blk)]
		skip, _ = maskSkipped(ds, base, skip)
		for i, d := range ds {
			if int(d) > t.thr {
				continue
			}
			id := base + i
			if opt.Exclude != nil && opt.Exclude.Test(uint(id)) {
				continue
			}
			t.add(int32(id), int(d))
		}
	}
	return t.finish(&opt), nil
}

// Nearest returns one nearest code to q. With TiesRandom (the case BRR needs)
// it is a uniformly random one among all minimizers, chosen by reservoir
// sampling in a single pass; with TiesAll it is the lowest id among them.
// It does not allocate.
//
// The reservoir draws depend on the blocks: a block whose minimum is
// below the best so far starts the count afresh, so codes tied at a
// distance later beaten are drawn for only if they sit in earlier blocks.
// To draw exactly what a scan over a copy of the searched codes would,
// the blocks hold blockSize searched codes each (and the skipped codes
// among them), as that copy's blocks do.
func (s *scan) Nearest(q Code, opt Options) (Neighbor, error) {
	if err := checkKNN(1, &opt); err != nil {
		return Neighbor{}, err
	}
	if opt.Exclude != nil {
		var one [1]Neighbor
		res, err := s.KNN(one[:0], q, 1, opt)
		if err != nil || len(res) == 0 {
			return Neighbor{}, ErrNoResult
		}
		return res[0], nil
	}
	res := reservoir{best: noDistance, pick: -1}
	if len(s.skip) == 0 {
		// Nothing skipped (an unrestricted index): blocks of blockSize
		// codes (the last fewer), no mask, no block ends to look up:
		// BRR's one-word search over every word is this loop.
		var buf [blockSize]uint16
		codes := s.codes
		for base := 0; base < len(codes); base += blockSize {
			blk := codes[base:min(base+blockSize, len(codes))]
			if m := distBlock(&q, blk, buf[:]); m <= res.best {
				res.walk(m, buf[:len(blk)], base, &opt)
			}
		}
		if res.pick < 0 {
			return Neighbor{}, ErrNoResult
		}
		return Neighbor{ID: int32(res.pick), Dist: int32(res.best)}, nil
	}
	// Room for a block and as many skipped codes again: a block with
	// more is computed twice (for its minimum, then for the walk).
	var buf [2 * blockSize]uint16
	codes, skip, left := s.codes, s.skip, s.Len()
	for g, start := 0, 0; start < len(codes); g++ {
		// [start, end) holds the g-th blockSize searched codes (fewer at
		// the end) and the nb skipped ids inside, blk of skip.
		end := min(start+blockSize, len(codes))
		if s.ends != nil {
			end = int(s.ends[g])
		}
		kept := min(blockSize, left)
		left -= kept
		nb := end - start - kept
		blk := skip[:nb]
		skip = skip[nb:]
		if end-start <= len(buf) {
			// blockDist and walk written out, for BRR's hot loop. Masking
			// can only raise the minimum: a block whose minimum, skipped
			// codes included, is above the best (most blocks of a far
			// query) needs none.
			ds := buf[:end-start]
			if m := distBlock(&q, codes[start:end], ds); m <= res.best {
				if nb > 0 {
					if _, masked := maskSkipped(ds, start, blk); masked == m {
						m = minDist(ds)
					}
				}
				res.walk(m, ds, start, &opt)
			}
		} else {
			s.nearestLong(&q, start, end, blk, &buf, &res, &opt)
		}
		start = end
	}
	if res.pick < 0 {
		return Neighbor{}, ErrNoResult
	}
	return Neighbor{ID: int32(res.pick), Dist: int32(res.best)}, nil
}

// reservoir is Nearest's running choice: the best distance so far, how
// many codes at it were seen, and the one kept.
type reservoir struct {
	best, seen, pick int
}

// walk offers a block whose distances are ds (ids from base) and whose
// smallest searched distance is m.
func (r *reservoir) walk(m int, ds []uint16, base int, opt *Options) {
	if m > r.best {
		return
	}
	best, seen, pick := m, r.seen, r.pick
	if m < r.best {
		seen = 0
	}
	for i, d := range ds {
		if int(d) != best {
			continue
		}
		seen++
		// Keep the seen-th minimizer with probability 1/seen: every
		// minimizer ends up chosen with probability 1/(total).
		if seen == 1 || (opt.Ties == TiesRandom && sample.UniformInt(opt.Rand, seen) == 0) {
			pick = base + i
		}
	}
	r.best, r.seen, r.pick = best, seen, pick
}

// nearestLong is Nearest's step for a block [lo, hi) too long for buf
// (more skipped codes than searched ones): one pass for its minimum, one
// to walk it, piece by piece.
func (s *scan) nearestLong(q *Code, lo, hi int, skip []int32, buf *[2 * blockSize]uint16, res *reservoir, opt *Options) {
	m, rest := noDistance, skip
	for b := lo; b < hi; b += len(buf) {
		var mb int
		mb, rest = s.blockDist(q, b, min(b+len(buf), hi), rest, buf[:])
		m = min(m, mb)
	}
	if m > res.best {
		return
	}
	rest = skip
	for b := lo; b < hi; b += len(buf) {
		e := min(b+len(buf), hi)
		_, rest = s.blockDist(q, b, e, rest, buf[:])
		// Every piece is offered at the block's minimum m: a piece
		// without it adds no code, as in a single pass.
		res.walk(m, buf[:e-b], b, opt)
	}
}

// blockDist writes to buf the distances from q to codes[lo:hi] (at most
// len(buf) codes), skipped codes (ids of skip, ascending, none below lo)
// given skippedDist. It returns the smallest distance of a searched code
// (noDistance if there is none) and skip without the ids below hi.
func (s *scan) blockDist(q *Code, lo, hi int, skip []int32, buf []uint16) (int, []int32) {
	ds := buf[:hi-lo]
	m := distBlock(q, s.codes[lo:hi], ds)
	if len(skip) == 0 {
		return m, skip
	}
	rest, masked := maskSkipped(ds, lo, skip)
	if masked == m {
		// The kernel's minimum may be a skipped code's: recount.
		m = minDist(ds)
	}
	return m, rest
}

// Range appends to dst[:0] every code within distance r of q, in id order.
func (s *scan) Range(dst []Neighbor, q Code, r int, opt Options) ([]Neighbor, error) {
	if r < 0 {
		return dst[:0], ErrInvalidRadius
	}
	r = min(r, Bits) // every code is within Bits; a skipped one never
	out := dst[:0]
	var buf [blockSize]uint16
	codes, skip := s.codes, s.skip
	for base := 0; base < len(codes); base += blockSize {
		blk := codes[base:min(base+blockSize, len(codes))]
		skip = skipFrom(skip, base)
		if distBlock(&q, blk, buf[:]) > r {
			continue
		}
		ds := buf[:len(blk)]
		skip, _ = maskSkipped(ds, base, skip)
		for i, d := range ds {
			if int(d) > r {
				continue
			}
			id := base + i
			if opt.Exclude != nil && opt.Exclude.Test(uint(id)) {
				continue
			}
			out = append(out, Neighbor{ID: int32(id), Dist: int32(d)})
		}
	}
	return out, nil
}
