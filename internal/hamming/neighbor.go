package hamming

import (
	"cmp"
	"errors"
	"math/rand/v2"
	"slices"

	"github.com/bits-and-blooms/bitset"
)

// Neighbor is one search result: a database id and its distance to the query.
type Neighbor struct {
	// ID is the code's position in the indexed slice.
	ID int32
	// Dist is its Hamming distance to the query, in bits (0 to Bits).
	Dist int32
}

// Ties says what a k-NN search does with codes tied at the k-th distance.
type Ties int

const (
	// TiesAll returns every code whose distance is at most the k-th
	// smallest, so a result can hold more than k codes.
	TiesAll Ties = iota
	// TiesRandom returns exactly min(k, eligible) codes; among the codes at
	// the k-th distance it keeps a uniformly random subset. It needs
	// Options.Rand.
	TiesRandom
)

// Options tune one search. The zero value asks for TiesAll, no exclusions and
// no radius hint.
type Options struct {
	// Ties says what a k-NN search does with codes tied at the k-th
	// distance; the zero value is TiesAll.
	Ties Ties
	// Rand supplies the randomness for TiesRandom. WordVeil's mechanisms
	// pass a CSPRNG (for example a ChaCha8 keyed from crypto/rand).
	Rand rand.Source
	// Exclude, if not nil, lists ids that are never returned (for example
	// the words already placed in a nearest-neighbour chain).
	Exclude *bitset.BitSet
	// ExpectedRadius is the caller's guess of the k-th distance, used only
	// by the planner to choose a strategy; results never depend on it.
	// Zero means unknown: the index then uses its running estimate.
	ExpectedRadius int
}

// Sentinel errors; callers can branch on them with errors.Is.
var (
	ErrInvalidK      = errors.New("hamming: k must be at least 1")
	ErrInvalidRadius = errors.New("hamming: radius must be at least 0")
	ErrNoRand        = errors.New("hamming: TiesRandom needs Options.Rand")
	ErrNoResult      = errors.New("hamming: no eligible code (empty database or all excluded)")
	ErrTooLarge      = errors.New("hamming: database larger than 2^31-1 codes")
)

// sortNeighbors orders ns by distance, then id.
func sortNeighbors(ns []Neighbor) {
	slices.SortFunc(ns, func(a, b Neighbor) int {
		if c := cmp.Compare(a.Dist, b.Dist); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

func checkKNN(k int, opt *Options) error {
	if k < 1 {
		return ErrInvalidK
	}
	if opt.Ties == TiesRandom && opt.Rand == nil {
		return ErrNoRand
	}
	return nil
}
