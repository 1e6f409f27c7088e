package hamming

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/wordveil/wordveil/internal/sample"
)

// nearestBefore is scan.Nearest as it was before Index.Without (blocks of
// blockSize ids, no skipped codes), kept to time the unrestricted search
// before and after in one run.
func nearestBefore(s *scan, q Code, opt Options) (Neighbor, error) {
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

// BenchmarkNearestWithout times BRR's search (a far query, random ties) on
// 50,000 codes, four ways in turn within every iteration so that all see
// the same machine load: over a copy of the codes left after skipping 214
// spread ids (as the mechanisms searched the default output vocabulary
// before), over the same restriction made by Without, and unrestricted,
// before and after Without. It reports each in ns/query and the ratios
// restricted/copy and unrestricted after/before.
func BenchmarkNearestWithout(b *testing.B) {
	r := rand.New(rand.NewPCG(26, 26))
	codes := randomCodes(r, 50000)
	var skip []int32
	for len(skip) < 214 {
		skip = append(skip, int32(r.IntN(len(codes))))
	}
	x, _ := NewIndex(codes)
	y, err := x.Without(skip)
	if err != nil {
		b.Fatal(err)
	}
	ref := newCopyIndex(b, codes, y.scan.skip)
	qs := benchQueries(codes, 96)
	rng := rand.NewChaCha8([32]byte{})
	opt := Options{Ties: TiesRandom, Rand: rng, ExpectedRadius: 90}
	var tCopy, tWithout, tBefore, tAfter time.Duration
	i := 0
	for b.Loop() {
		q := qs[i%len(qs)]
		t0 := time.Now()
		ref.x.Nearest(q, opt)
		t1 := time.Now()
		y.Nearest(q, opt)
		t2 := time.Now()
		nearestBefore(x.scan, q, opt)
		t3 := time.Now()
		x.Nearest(q, opt)
		t4 := time.Now()
		tCopy, tWithout, tBefore, tAfter = tCopy+t1.Sub(t0), tWithout+t2.Sub(t1), tBefore+t3.Sub(t2), tAfter+t4.Sub(t3)
		i++
	}
	n := float64(b.N)
	b.ReportMetric(float64(tCopy.Nanoseconds())/n, "copy-ns/query")
	b.ReportMetric(float64(tWithout.Nanoseconds())/n, "without-ns/query")
	b.ReportMetric(float64(tWithout)/float64(tCopy), "without/copy")
	b.ReportMetric(float64(tBefore.Nanoseconds())/n, "all-before-ns/query")
	b.ReportMetric(float64(tAfter.Nanoseconds())/n, "all-after-ns/query")
	b.ReportMetric(float64(tAfter)/float64(tBefore), "all-after/before")
}
