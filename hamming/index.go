package hamming

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	ihamming "github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
)

var (
	// ErrInvalid is wrapped by every error about an argument: k below 1,
	// a radius outside [0, 256], an id outside the index, more than
	// 2^31−1 codes, or a nil or zero *Index.
	ErrInvalid = errors.New("hamming: invalid argument")
	// ErrEmpty is returned by Nearest when the index has no code to
	// return (no codes, or every one excluded by Without).
	ErrEmpty = ihamming.ErrNoResult
)

// Neighbor is one search result.
type Neighbor struct {
	// ID is the code's position in the slice given to NewIndex.
	ID int
	// Dist is its Hamming distance to the query, in [0, 256].
	Dist int
}

// Index answers exact nearest-neighbour and range queries over a fixed
// slice of codes. Make one with NewIndex; the zero Index holds nothing
// and its methods return ErrInvalid. Its methods are safe for concurrent
// use.
type Index struct {
	x *ihamming.Index
}

// NewIndex returns an index over codes. The slice is used in place, not
// copied: the caller must not modify it while the index is in use. An
// empty slice gives an empty index.
func NewIndex(codes []Code) (*Index, error) {
	x, err := ihamming.NewIndex(codes)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return &Index{x: x}, nil
}

// engine returns x's engine index, or ErrInvalid for a nil or zero x.
func (x *Index) engine() (*ihamming.Index, error) {
	if x == nil || x.x == nil {
		return nil, fmt.Errorf("%w: nil or zero Index (use NewIndex)", ErrInvalid)
	}
	return x.x, nil
}

// Len returns the number of codes the index searches: those given to
// NewIndex less those excluded by Without. It is 0 for a nil or zero
// Index.
func (x *Index) Len() int {
	if x == nil || x.x == nil {
		return 0
	}
	return x.x.Len()
}

// Nearest returns a code nearest to q. When several codes share the
// minimum distance, each is returned with equal probability, drawn from
// rng; a nil rng means a ChaCha8 generator keyed from crypto/rand for this
// call. An empty index gives ErrEmpty. It does not allocate when the
// planner scans (far queries, and every query on fewer than 2048 codes)
// and rng is not nil.
func (x *Index) Nearest(q Code, rng rand.Source) (Neighbor, error) {
	e, err := x.engine()
	if err != nil {
		return Neighbor{}, err
	}
	n, err := e.Nearest(q, randomTies(rng))
	if err != nil {
		return Neighbor{}, err // ErrEmpty: the options are valid
	}
	return Neighbor{ID: int(n.ID), Dist: int(n.Dist)}, nil
}

// KNN returns the k nearest codes to q, sorted by distance, then id:
// exactly min(k, Len()) of them. When more codes than fit share the k-th
// distance, a uniformly random subset of them is kept (every subset of
// the right size equally likely), drawn from rng; a nil rng means a
// ChaCha8 generator keyed from crypto/rand for this call. Every code
// nearer than the k-th distance is always returned. A k below 1 gives
// ErrInvalid.
func (x *Index) KNN(q Code, k int, rng rand.Source) ([]Neighbor, error) {
	e, err := x.engine()
	if err != nil {
		return nil, err
	}
	if k < 1 {
		return nil, fmt.Errorf("%w: k = %d, want at least 1", ErrInvalid, k)
	}
	res, err := e.KNN(nil, q, k, randomTies(rng))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return neighbors(res), nil
}

// Range returns every code within distance r of q (distance ≤ r), sorted
// by distance, then id. A radius outside [0, Bits] gives ErrInvalid.
func (x *Index) Range(q Code, r int) ([]Neighbor, error) {
	e, err := x.engine()
	if err != nil {
		return nil, err
	}
	if r < 0 || r > Bits {
		return nil, fmt.Errorf("%w: radius %d outside [0, %d]", ErrInvalid, r, Bits)
	}
	res, err := e.Range(nil, q, r, ihamming.Options{})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	ns := neighbors(res)
	sortNeighbors(ns)
	return ns, nil
}

// Without returns an index over the same codes that never returns the
// given ids (in any order, duplicates allowed) nor those x already
// excludes. Results keep the ids of the slice given to NewIndex. It
// copies no code and shares x's multi-index tables; each query still
// computes the distance of every code, excluded ones included. An id
// outside [0, n), n the length of that slice, gives ErrInvalid. Excluding
// every code is allowed: the index is then empty.
//
// Its answers, random draws included, are those of NewIndex over a copy
// of the codes left (with that index's ids mapped back).
func (x *Index) Without(ids []int) (*Index, error) {
	e, err := x.engine()
	if err != nil {
		return nil, err
	}
	n := len(e.Codes())
	skip := make([]int32, len(ids))
	for i, id := range ids {
		if id < 0 || id >= n {
			return nil, fmt.Errorf("%w: id %d outside [0, %d)", ErrInvalid, id, n)
		}
		skip[i] = int32(id) // n ≤ 2^31−1 (NewIndex)
	}
	y, err := e.Without(skip)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return &Index{x: y}, nil
}

// randomTies asks the engine for uniformly random ties from rng, or from
// a fresh ChaCha8 keyed from crypto/rand when rng is nil.
func randomTies(rng rand.Source) ihamming.Options {
	if rng == nil {
		rng = sample.SecureSource()
	}
	return ihamming.Options{Ties: ihamming.TiesRandom, Rand: rng}
}

// neighbors converts the engine's results.
func neighbors(res []ihamming.Neighbor) []Neighbor {
	out := make([]Neighbor, len(res))
	for i, n := range res {
		out[i] = Neighbor{ID: int(n.ID), Dist: int(n.Dist)}
	}
	return out
}

// sortNeighbors orders ns by distance, then id.
func sortNeighbors(ns []Neighbor) {
	slices.SortFunc(ns, func(a, b Neighbor) int {
		return cmp.Or(cmp.Compare(a.Dist, b.Dist), cmp.Compare(a.ID, b.ID))
	})
}
