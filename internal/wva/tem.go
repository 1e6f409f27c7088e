package wva

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// ErrGammaMax is returned by StepsFor when γ exceeds the γ_max the lists
// were built for: a smaller stored ball is not the γ-ball TEM's proof needs
// (Lemma 4.1), so the mechanism must fail instead of using it.
var ErrGammaMax = errors.New("γ above the lists' γ_max")

// Neighbor is one member of a TEM ball.
type Neighbor struct {
	ID uint32 // word id
	// Dist is the quantized distance in steps: the distance is Dist·Step.
	Dist uint32
}

// TEMLists holds, for every word w, its ball L_w: every word i with
// quantized distance ⌈d(w,i)/q⌉ ≤ G, where q is Step and G MaxSteps.
//
// The quantized metric d'(w,i) = q·⌈d(w,i)/q⌉ is what the mechanism must
// use. Rounding up keeps it a metric: if d(a,c) ≤ d(a,b) + d(b,c) then
// ⌈d(a,c)/q⌉ ≤ ⌈d(a,b)/q + d(b,c)/q⌉ ≤ ⌈d(a,b)/q⌉ + ⌈d(b,c)/q⌉, because
// ⌈x+y⌉ ≤ ⌈x⌉+⌈y⌉. Rounding to nearest does not (0.4q + 0.4q vs 0.8q).
// Since d ≤ d' < d + q, ε-metric-DP for d' is ε·(d+q)-metric-DP for d.
//
// A TEMLists is immutable and safe for concurrent use. In memory each entry
// takes Width(N−1) + Width(G) bits (25 at N = 50k, G = 450).
type TEMLists struct {
	n        int
	step     float64
	maxSteps uint32
	// start[w] .. start[w+1] index w's entries (w itself excluded) in
	// entries, sorted by (Dist, ID). An entry is Dist<<idBits | ID, one
	// packed field, so that integer order is ball order and Ball reads
	// each entry with one load.
	start   []uint32
	entries bitpack.Array
	idBits  uint
	pairs   uint64
}

// Quantize returns ⌈d/step⌉, the stored form of distance d. It fails for a
// negative or non-finite distance, a non-positive or non-finite step, or a
// result above 2³²−1.
func Quantize(d, step float64) (uint32, error) {
	if !(step > 0) || math.IsInf(step, 0) {
		return 0, invalidf("tem", "quantization step %v is not a positive finite number", step)
	}
	if !(d >= 0) || math.IsInf(d, 0) {
		return 0, invalidf("tem", "distance %v is not a non-negative finite number", d)
	}
	k := math.Ceil(d / step)
	if k > math.MaxUint32 {
		return 0, invalidf("tem", "distance %v is %v steps of %v, above 2^32-1", d, k, step)
	}
	return uint32(k), nil
}

// NewTEMLists builds the lists for a vocabulary of n words. balls[w] holds
// every word i with Quantize(d(w,i), step) ≤ maxSteps, with that quantized
// distance, in any order; w itself may be included (with distance 0) or
// left out. The balls must be exact and symmetric — i in balls[w] at
// distance D exactly when w is in balls[i] at distance D — as they are for
// any metric; an asymmetric input is reported, since it means the builder's
// range search missed words. balls is not retained.
func NewTEMLists(n int, step float64, maxSteps uint32, balls [][]Neighbor) (*TEMLists, error) {
	if err := checkTEMParams("tem", n, step, maxSteps, invalidf); err != nil {
		return nil, err
	}
	if len(balls) != n {
		return nil, invalidf("tem", "%d balls for %d words", len(balls), n)
	}
	// byID[w] is w's ball without w, sorted by id, for the symmetry check.
	byID := make([][]Neighbor, n)
	for w, ball := range balls {
		s := make([]Neighbor, 0, len(ball))
		for _, e := range ball {
			switch {
			case uint64(e.ID) >= uint64(n):
				return nil, invalidf("tem", "word %d: neighbour id %d, vocabulary has %d words", w, e.ID, n)
			case e.Dist > maxSteps:
				return nil, invalidf("tem", "word %d: neighbour %d at %d steps, above maxSteps %d", w, e.ID, e.Dist, maxSteps)
			case int(e.ID) == w && e.Dist != 0:
				return nil, invalidf("tem", "word %d: distance to itself is %d steps", w, e.Dist)
			case int(e.ID) != w:
				s = append(s, e)
			}
		}
		slices.SortFunc(s, func(a, b Neighbor) int { return cmpU32(a.ID, b.ID) })
		for k := 1; k < len(s); k++ {
			if s[k].ID == s[k-1].ID {
				return nil, invalidf("tem", "word %d: neighbour %d listed twice", w, s[k].ID)
			}
		}
		byID[w] = s
	}
	var pairs uint64
	for w, s := range byID {
		for _, e := range s {
			back := byID[e.ID]
			k, found := slices.BinarySearchFunc(back, uint32(w), func(x Neighbor, id uint32) int { return cmpU32(x.ID, id) })
			if !found {
				return nil, invalidf("tem", "not symmetric: %d is in the ball of %d but not the reverse", e.ID, w)
			}
			if back[k].Dist != e.Dist {
				return nil, invalidf("tem", "not symmetric: d(%d,%d) = %d steps but d(%d,%d) = %d", w, e.ID, e.Dist, e.ID, w, back[k].Dist)
			}
			if int(e.ID) > w {
				pairs++
			}
		}
	}
	tri := newTriangle(n, maxSteps, pairs)
	for w, s := range byID {
		for _, e := range s {
			if int(e.ID) > w {
				tri.add(uint32(w), e.ID, e.Dist)
			}
		}
		tri.endWord()
	}
	return assemble("tem", n, step, maxSteps, tri, invalidf)
}

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// checkTEMParams validates the list parameters; errf picks the error kind
// (invalid input to the constructor, or a corrupt file).
func checkTEMParams(part string, n int, step float64, maxSteps uint32, errf func(part, format string, args ...any) error) error {
	switch {
	case n < 0 || n > maxWords:
		return errf(part, "vocabulary size %d out of [0, %d]", n, maxWords)
	case !(step > 0) || math.IsInf(step, 0):
		return errf(part, "quantization step %v is not a positive finite number", step)
	case maxSteps == 0:
		return errf(part, "maxSteps is 0: gamma_max would be below one step")
	case math.IsInf(float64(maxSteps)*step, 0):
		return errf(part, "gamma_max = %d × %v overflows", maxSteps, step)
	}
	return nil
}

// Len returns the vocabulary size N.
func (t *TEMLists) Len() int { return t.n }

// Step returns the quantization step q.
func (t *TEMLists) Step() float64 { return t.step }

// MaxSteps returns G, the largest stored quantized distance.
func (t *TEMLists) MaxSteps() uint32 { return t.maxSteps }

// GammaMax returns G·q, the largest γ for which the stored balls are exact.
func (t *TEMLists) GammaMax() float64 { return float64(t.maxSteps) * t.step }

// Pairs returns the number of unordered pairs {w, i}, w ≠ i, stored.
func (t *TEMLists) Pairs() uint64 { return t.pairs }

// SizeBytes returns the memory held by the lists.
func (t *TEMLists) SizeBytes() int {
	return 4*cap(t.start) + t.entries.SizeBytes()
}

// StepsFor converts a radius γ to the largest step count k with k·q ≤ γ,
// so that the TEM ball of radius γ under the quantized metric is the
// prefix of Ball with Dist ≤ k. It returns ErrGammaMax if γ > GammaMax.
func (t *TEMLists) StepsFor(gamma float64) (uint32, error) {
	if !(gamma >= 0) {
		return 0, fmt.Errorf("wva: tem: γ = %v is not a number ≥ 0", gamma)
	}
	if gamma > t.GammaMax() {
		return 0, errwrap.Tag(ErrGammaMax, "wva: tem: γ = %v exceeds the lists' γ_max = %v", gamma, t.GammaMax())
	}
	k := math.Floor(gamma / t.step)
	// Division rounds; settle k by the products the caller compares with.
	for k > 0 && k*t.step > gamma {
		k--
	}
	for k+1 <= float64(t.maxSteps) && (k+1)*t.step <= gamma {
		k++
	}
	return uint32(min(k, float64(t.maxSteps))), nil
}

// Count returns |L_w|, w included. It panics if w is not in [0, Len()).
func (t *TEMLists) Count(w int) int {
	s, e := t.bounds(w)
	return e - s + 1
}

func (t *TEMLists) bounds(w int) (int, int) {
	if uint(w) >= uint(t.n) {
		panic(fmt.Sprintf("wva: TEM word %d out of range [0, %d)", w, t.n))
	}
	return int(t.start[w]), int(t.start[w+1])
}

// Ball appends L_w to dst and returns the extended slice: first w itself at
// distance 0, then every other member sorted by (Dist, ID). It allocates
// only if dst lacks capacity. It panics if w is not in [0, Len()).
func (t *TEMLists) Ball(w int, dst []Neighbor) []Neighbor {
	s, e := t.bounds(w)
	return t.appendRange(w, s, e, dst)
}

// BallWithin is Ball restricted to members with Dist ≤ maxSteps, i.e. the
// ball of radius maxSteps·q (see StepsFor).
func (t *TEMLists) BallWithin(w int, maxSteps uint32, dst []Neighbor) []Neighbor {
	s, e := t.bounds(w)
	// Entries are sorted by distance, the key's high part: binary-search
	// the first entry beyond maxSteps.
	limit := (uint64(maxSteps) + 1) << t.idBits
	lo, hi := s, e
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.entries.Get(m) < limit {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return t.appendRange(w, s, lo, dst)
}

func (t *TEMLists) appendRange(w, s, e int, dst []Neighbor) []Neighbor {
	n := len(dst)
	dst = slices.Grow(dst, e-s+1)[:n+e-s+1]
	out := dst[n:]
	out[0] = Neighbor{ID: uint32(w)}
	out = out[1:]
	// The hot loop of every TEM call: one unaligned load per entry, no
	// per-entry range check beyond the slice's own.
	data, width, mask := t.entries.Raw()
	idBits := t.idBits
	idMask := uint64(1)<<idBits - 1
	bit := uint64(s) * uint64(width)
	for k := range out {
		v := binary.LittleEndian.Uint64(data[bit>>3:]) >> (bit & 7) & mask
		out[k] = Neighbor{ID: uint32(v & idMask), Dist: uint32(v >> idBits)}
		bit += uint64(width)
	}
	return dst
}
