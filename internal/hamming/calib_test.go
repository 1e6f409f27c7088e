//go:build calibrate

package hamming

import (
	"testing"
	"time"
)

// TestCalibrate is not a test: it is the tool that fits the planner's cost
// constants (cost.go) on this machine, by timing MIH and scan range queries
// and printing time against (probes, entries) for a regression. It asserts
// nothing, so it is kept out of the test suite by the build tag
// "calibrate" (go test, go vet and make test never build it). Run it by
// hand, on an idle machine (`make calibrate-hamming`):
//
//	go test -tags calibrate ./hamming/ -run Calibrate -v -timeout 30m
func TestCalibrate(t *testing.T) {
	for _, name := range benchSets {
		codes := benchData()[name]
		m, _ := newMIH(codes)
		s, _ := newScan(codes)
		for _, r := range []int{0, 8, 15, 16, 24, 31, 32, 40, 47, 48} {
			qs := benchQueries(codes, 0)
			var probes, entries int
			for _, q := range qs {
				p, e := m.countWork(&q, r)
				probes += p
				entries += e
			}
			buf := make([]Neighbor, 0, 4096)
			start := time.Now()
			for _, q := range qs {
				buf, _ = m.Range(buf, q, r, Options{})
			}
			el := time.Since(start).Seconds() * 1e9 / float64(len(qs))
			start = time.Now()
			for _, q := range qs {
				buf, _ = s.Range(buf, q, r, Options{})
			}
			sc := time.Since(start).Seconds() * 1e9 / float64(len(qs))
			n := float64(len(qs))
			t.Logf("%s r=%d: probes %.0f entries %.0f mih %.0f ns scan %.0f ns (%.2f ns/code); model %.0f",
				name, r, float64(probes)/n, float64(entries)/n, el, sc, sc/float64(len(codes)),
				float64(probes)/n*costProbe+float64(entries)/n*verifyCost(len(codes)))
		}
	}
}

func (m *mih) countWork(q *Code, r int) (probes, entries int) {
	s, a := rangeRadii(r)
	for j := 0; j < substrings; j++ {
		key := substring(q, j)
		rj := s
		if j > a {
			rj = s - 1
		}
		for _, mask := range masks()[:ballKeys(rj)] {
			k := key ^ uint32(mask)
			probes++
			entries += int(m.off[j][k+1] - m.off[j][k])
		}
	}
	return probes, entries
}
