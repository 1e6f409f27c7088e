package report

import (
	"math"
	"sort"
	"strings"

	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// levelTolerance is how far a candidate cell's measured N_w may be from a
// target to stand for it: the calibration's tolerance, doubled for a
// study run with another seed than the calibration's (other words).
const levelTolerance = 2 * study.CandidateTolerance

// isCandidate reports whether m is a candidate of the search.
func isCandidate(m string) bool { return strings.HasPrefix(m, study.CandidatePrefix) }

// point is a mechanism's accuracy at some N_w: a cell, or the linear
// interpolation between the two cells whose N_w bracket it.
type point struct {
	NW           float64 // where it is read
	Mean, Lo, Hi float64
	// Reached: the N_w lies within the mechanism's measured range. If
	// not, the point is the nearest cell (Below: every cell is less
	// private, i.e. has a higher N_w).
	Reached, Below bool
	// Lower: the point is a cell at a lower N_w than asked that beats the
	// interpolation there (a curve that is not monotone).
	Lower bool
	a, b  *Cell   // the bracketing cells (a = b for one cell)
	w     float64 // weight of b
}

// interpolate returns cells' accuracy at N_w = x: linear in N_w between
// the two cells that bracket x (mean and both CI ends alike), the cell
// itself where one sits at x, the nearest cell when x is out of range; ok
// is false when no cell has both N_w and accuracy.
func interpolate(cells []Cell, x float64) (point, bool) {
	var cs []*Cell
	for i := range cells {
		if c := &cells[i]; !math.IsNaN(c.NW) && !math.IsNaN(c.Mean) {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 || math.IsNaN(x) {
		return point{}, false
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].NW < cs[j].NW })
	at := func(a, b *Cell, w float64, reached bool) point {
		lin := func(u, v float64) float64 { return (1-w)*u + w*v }
		return point{NW: lin(a.NW, b.NW), Mean: lin(a.Mean, b.Mean), Lo: lin(a.Lo, b.Lo), Hi: lin(a.Hi, b.Hi), Reached: reached, a: a, b: b, w: w}
	}
	if first := cs[0]; x < first.NW {
		p := at(first, first, 0, false)
		p.Below = true
		return p, true
	}
	if last := cs[len(cs)-1]; x > last.NW {
		return at(last, last, 0, false), true
	}
	for i := range cs {
		if cs[i].NW == x {
			return at(cs[i], cs[i], 0, true), true
		}
		if i+1 < len(cs) && cs[i].NW < x && x < cs[i+1].NW {
			w := (x - cs[i].NW) / (cs[i+1].NW - cs[i].NW)
			p := at(cs[i], cs[i+1], w, true)
			p.NW = x // exact, not rounded through the weights
			return p, true
		}
	}
	return point{}, false // unreachable: x is within [first, last]
}

// bestBelow is the cell of highest mean accuracy at N_w ≤ x (ok false
// when there is none).
func bestBelow(cells []Cell, x float64) (point, bool) {
	var best *Cell
	for i := range cells {
		c := &cells[i]
		if !math.IsNaN(c.NW) && !math.IsNaN(c.Mean) && c.NW <= x && (best == nil || c.Mean > best.Mean) {
			best = c
		}
	}
	if best == nil {
		return point{}, false
	}
	return point{NW: best.NW, Mean: best.Mean, Lo: best.Lo, Hi: best.Hi, Reached: true, Lower: true, a: best, b: best}, true
}

// pairedDiff is the mean over runs of cand's accuracy minus the other
// mechanism's (interpolated with p's weights, run by run), with its 95%
// CI; only runs present in every cell involved count. Runs pair because
// the classifier's seed depends on the run only; the privatization noise
// does not pair, so the pairing removes the classifier's share of the
// variance only.
func pairedDiff(cand *Cell, p point) (mean, lo, hi float64, n int) {
	var ds []float64
	for r, c := range cand.ByRun {
		a, okA := p.a.ByRun[r]
		b, okB := p.b.ByRun[r]
		if okA && okB {
			ds = append(ds, c-((1-p.w)*a+p.w*b))
		}
	}
	sort.Float64s(ds) // map order must not change the sums' rounding
	mean, lo, hi = MeanCI(ds)
	return mean, lo, hi, len(ds)
}

// comparison is one other mechanism against the level's best candidate.
type comparison struct {
	Mechanism string
	At        point
	// Comparable: the mechanism has a cell at an N_w at or below the
	// level (otherwise it is never that private and cannot contradict the
	// candidate's lead there).
	Comparable bool
	// ByMean: the candidate's mean ≥ the mechanism's; Separated: the
	// candidate's CI lies wholly above the mechanism's.
	ByMean, Separated bool
	// Paired difference (candidate − mechanism) over paired runs; NaN
	// when no run pairs.
	Diff, DiffLo, DiffHi float64
	DiffRuns             int
}

// levelResult is the search's answer at one N_w target.
type levelResult struct {
	Target float64
	// Cand is the best candidate's cell (nil: no candidate reached the
	// level); Also the other candidates at the level, best first.
	Cand *Cell
	Also []*Cell
	// X is the N_w the others are read at: the larger of the target and
	// the candidate's measured N_w, so a candidate measured slightly
	// above the target is compared with the others at its own N_w and
	// never gains from the rounding.
	X      float64
	Others []comparison
}

// Leads reports whether the candidate's mean is at least every
// comparable mechanism's (ok false: no candidate); beaten lists those
// whose mean is higher.
func (l levelResult) Leads() (leads bool, beaten []string) {
	if l.Cand == nil {
		return false, nil
	}
	for _, o := range l.Others {
		if o.Comparable && !o.ByMean {
			beaten = append(beaten, o.Mechanism)
		}
	}
	return len(beaten) == 0, beaten
}

// bestAt answers the search at target t: the best candidate cell within
// levelTolerance of t and every non-candidate mechanism read at its N_w.
func (s *Study) bestAt(t float64) levelResult {
	res := levelResult{Target: t, X: t}
	var at []*Cell
	for _, m := range s.Order {
		if !isCandidate(m) {
			continue
		}
		cells := s.Cells[m]
		var near *Cell
		for i := range cells {
			c := &cells[i]
			if math.IsNaN(c.NW) || math.IsNaN(c.Mean) || math.Abs(c.NW-t) > levelTolerance {
				continue
			}
			if near == nil || math.Abs(c.NW-t) < math.Abs(near.NW-t) {
				near = c
			}
		}
		if near != nil {
			at = append(at, near)
		}
	}
	if len(at) == 0 {
		return res
	}
	sort.SliceStable(at, func(i, j int) bool { return at[i].Mean > at[j].Mean })
	res.Cand, res.Also = at[0], at[1:]
	res.X = math.Max(t, res.Cand.NW)
	for _, m := range s.Order {
		if isCandidate(m) {
			continue
		}
		p, ok := interpolate(s.Cells[m], res.X)
		if !ok {
			continue
		}
		// The criterion is the mechanism's accuracy at equal OR LOWER
		// N_w: where its curve is not monotone, a more private cell can
		// beat the interpolation, and then it is the one compared.
		if q, ok := bestBelow(s.Cells[m], res.X); ok && q.Mean > p.Mean {
			p = q
		}
		c := comparison{Mechanism: m, At: p, Comparable: !p.Below,
			ByMean: res.Cand.Mean >= p.Mean, Separated: res.Cand.Lo > p.Hi}
		c.Diff, c.DiffLo, c.DiffHi, c.DiffRuns = pairedDiff(res.Cand, p)
		res.Others = append(res.Others, c)
	}
	return res
}

// hasCandidates reports whether the study ran any candidate.
func (s *Study) hasCandidates() bool {
	for _, m := range s.Order {
		if isCandidate(m) {
			return true
		}
	}
	return false
}
