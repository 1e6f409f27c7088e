package attack

import (
	"fmt"
	"math"
)

// CusTextScale is the distance at which CusText's utility
// u(x,y) = 1 − d(x,y)/CusTextScale reaches 0: the 256-bit code length
// (as dpexact.CusTextScale).
const CusTextScale = 256

// CusText is the Column of CusText and CusText+ (dpexact.CusText,
// CusTextPlus, entry by entry): the exponential mechanism over the
// allowed members of the input's output set,
//
//	P[x][y] = exp(ε·(near_x − d(x,y))/(2·CusTextScale)) / Z_x   y in x's set and in A,
//
// near_x the smallest distance from x to an allowed member of its set
// (scores relative to it, as dpexact, so nothing underflows), and 0
// elsewhere; with stop words (CusText+), an allowed stop word is released
// unchanged. A column touches only y's set: O(s) after O(Σ s²) to build,
// s the set sizes.
type CusText struct {
	n       int
	dist    func(x, y int) float64
	groups  []int
	members map[int][]int
	stop    []bool
	allowed []bool
	eps     float64
	near, z []float64
}

// NewCusText builds CusText's Column for n words: groups[x] names x's
// output set, dist is the metric (finite, ≥ 0, zero on the diagonal),
// stop the CusText+ stop words (nil: CusText) and allowed the allowed
// outputs (nil: every word). Every set must keep an allowed word for
// each of its non-stop members.
func NewCusText(n int, dist func(x, y int) float64, groups []int, stop []bool, eps float64, allowed []bool) (*CusText, error) {
	if n < 1 || dist == nil {
		return nil, fmt.Errorf("%w: CusText needs N ≥ 1 words and a metric", ErrInvalid)
	}
	if len(groups) != n || stop != nil && len(stop) != n || allowed != nil && len(allowed) != n {
		return nil, fmt.Errorf("%w: sets, stop words or allowed outputs do not cover the %d words", ErrInvalid, n)
	}
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	c := &CusText{n: n, dist: dist, groups: groups, members: map[int][]int{}, stop: stop, allowed: allowed, eps: eps,
		near: make([]float64, n), z: make([]float64, n)}
	for x, g := range groups {
		c.members[g] = append(c.members[g], x)
	}
	for x := range n {
		if c.isStop(x) {
			continue
		}
		near := math.Inf(1)
		for _, y := range c.members[groups[x]] {
			d := dist(x, y)
			if !(d >= 0) || math.IsInf(d, 1) || x == y && d != 0 {
				return nil, fmt.Errorf("%w: d(%d, %d) = %v", ErrInvalid, x, y, d)
			}
			if c.ok(y) {
				near = math.Min(near, d)
			}
		}
		if math.IsInf(near, 1) {
			return nil, fmt.Errorf("%w: no allowed word in the set of word %d", ErrInvalid, x)
		}
		c.near[x] = near
		for _, y := range c.members[groups[x]] {
			if c.ok(y) {
				c.z[x] += c.weight(x, y)
			}
		}
	}
	return c, nil
}

func (c *CusText) ok(y int) bool     { return c.allowed == nil || c.allowed[y] }
func (c *CusText) isStop(x int) bool { return c.stop != nil && c.stop[x] && c.ok(x) }

func (c *CusText) weight(x, y int) float64 {
	return math.Exp(0.5 * c.eps * (c.near[x] - c.dist(x, y)) / CusTextScale)
}

// Len is N.
func (c *CusText) Len() int {
	if c == nil {
		return 0
	}
	return c.n
}

// Column writes P[x][y] for every x.
func (c *CusText) Column(y int, dst []float64) error {
	if err := checkColumn(y, dst, c.Len()); err != nil {
		return err
	}
	clear(dst)
	if !c.ok(y) {
		return nil
	}
	for _, x := range c.members[c.groups[y]] {
		switch {
		case c.isStop(x):
			if x == y {
				dst[x] = 1
			}
		default:
			dst[x] = c.weight(x, y) / c.z[x]
		}
	}
	return nil
}
