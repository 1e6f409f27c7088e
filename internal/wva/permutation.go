package wva

import "fmt"

// Permutation is one 1-Diffractor list: an ordering of the whole vocabulary.
// Order[p] is the word at position p and Pos[w] the position of word w, so
// Order[Pos[w]] == w for every w. The list metric is |Pos[w] − Pos[w']|.
type Permutation struct {
	// Order lists the word ids by position: Order[p] is the word at p.
	Order []uint32
	// Pos is the inverse of Order: Pos[w] is the position of word w.
	Pos []uint32
}

// NewPermutation checks that order is an exact permutation of [0, len(order))
// — every id exactly once, the property the reference code broke — and
// returns it with its inverse. order is retained, not copied.
func NewPermutation(order []uint32) (Permutation, error) {
	pos, err := invert(order)
	if err != nil {
		return Permutation{}, fmt.Errorf("wva: list: %w: %w", ErrInvalid, err)
	}
	return Permutation{Order: order, Pos: pos}, nil
}

// Len returns the number of words in the list.
func (p Permutation) Len() int { return len(p.Order) }

// invert returns the inverse of order, or an error naming the first id that
// is out of range or repeated. A repeat-free sequence of n ids below n is
// a permutation, so missing ids need no separate check.
func invert(order []uint32) ([]uint32, error) {
	n := len(order)
	pos := make([]uint32, n)
	// Positions are stored +1 during the scan so that 0 means "not seen";
	// the shift is undone below.
	for p, id := range order {
		if uint64(id) >= uint64(n) {
			return nil, fmt.Errorf("position %d holds id %d, vocabulary has %d words", p, id, n)
		}
		if pos[id] != 0 {
			return nil, fmt.Errorf("id %d at positions %d and %d", id, pos[id]-1, p)
		}
		pos[id] = uint32(p) + 1
	}
	for i := range pos {
		pos[i]--
	}
	return pos, nil
}
