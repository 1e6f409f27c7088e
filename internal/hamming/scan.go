package hamming

import "github.com/wordveil/wordveil/internal/sample"

// scan searches by comparing the query with every code, one kernel block at a
// time. Its cost is N distance computations whatever the radius, which makes
// it the right choice for far queries (BRR's noisy codes lie ~90-100 bits from
// everything) and for small databases.
type scan struct {
	codes []Code
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

// Len returns the number of codes.
func (s *scan) Len() int { return len(s.codes) }

// KNN appends to dst[:0] the k nearest codes to q, sorted by (distance, id),
// with ties handled as opt.Ties says.
func (s *scan) KNN(dst []Neighbor, q Code, k int, opt Options) ([]Neighbor, error) {
	if err := checkKNN(k, &opt); err != nil {
		return dst[:0], err
	}
	var t topK
	t.reset(k, dst)
	var buf [blockSize]uint16
	codes := s.codes
	for base := 0; base < len(codes); base += blockSize {
		blk := codes[base:min(base+blockSize, len(codes))]
		if distBlock(&q, blk, buf[:]) > t.thr {
			continue
		}
		for i, d := range buf[:len(blk)] {
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
	best, seen, pick := noDistance, 0, -1
	var buf [blockSize]uint16
	codes := s.codes
	for base := 0; base < len(codes); base += blockSize {
		blk := codes[base:min(base+blockSize, len(codes))]
		m := distBlock(&q, blk, buf[:])
		if m > best {
			continue
		}
		if m < best {
			best, seen = m, 0
		}
		for i, d := range buf[:len(blk)] {
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
	}
	if pick < 0 {
		return Neighbor{}, ErrNoResult
	}
	return Neighbor{ID: int32(pick), Dist: int32(best)}, nil
}

// Range appends to dst[:0] every code within distance r of q, in id order.
func (s *scan) Range(dst []Neighbor, q Code, r int, opt Options) ([]Neighbor, error) {
	if r < 0 {
		return dst[:0], ErrInvalidRadius
	}
	out := dst[:0]
	var buf [blockSize]uint16
	codes := s.codes
	for base := 0; base < len(codes); base += blockSize {
		blk := codes[base:min(base+blockSize, len(codes))]
		if distBlock(&q, blk, buf[:]) > r {
			continue
		}
		for i, d := range buf[:len(blk)] {
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
