package typedtext

import (
	"cmp"
	"container/heap"
	"fmt"
	"math"
	"slices"
	"strings"
)

const (
	// TopOOV is how many OOV types Share.Top lists.
	TopOOV = 50
	// MaxTracked bounds the OOV types OOVShare counts at once. Up to that
	// many distinct OOV types every count is exact; past it, OOVShare
	// switches to the Space-Saving summary, whose counts are over-estimates
	// by at most TypeCount.Err.
	MaxTracked = 1 << 16
	// maxKeyBytes bounds a tracked word: longer ones are kept as their first
	// maxKeyBytes bytes followed by "…".
	maxKeyBytes = 64
)

// TypeCount is an OOV word type and its count: the true count lies in
// [Count-Err, Count]; Err is 0 unless more than MaxTracked OOV types occurred.
type TypeCount struct {
	Word  string
	Count int64
	Err   int64
}

// Share is the outcome of OOVShare.
type Share struct {
	Docs   int64 // documents read
	Tokens int64 // word tokens
	OOV    int64 // word tokens not in the vocabulary
	// Types is the number of distinct OOV types seen, exact while it is at
	// most MaxTracked, else MaxTracked (a lower bound).
	Types int64
	// Top lists up to TopOOV OOV types, most frequent first, ties by word.
	Top []TypeCount
}

// Fraction is OOV/Tokens, or 0 when there are no tokens.
func (s Share) Fraction() float64 {
	if s.Tokens == 0 {
		return 0
	}
	return float64(s.OOV) / float64(s.Tokens)
}

// OOVShare counts the word tokens of every document docs yields (the
// tokens are words(doc)), the tokens for which inVocab is false, and the
// most frequent OOV types. Time is linear in the number of tokens (each
// update is O(log MaxTracked)); memory is bounded by MaxTracked counters of
// at most maxKeyBytes-byte words, whatever the input. An error from docs
// (or the one it relays from the callback) is returned with the counts so
// far.
func OOVShare(docs func(fn func(doc string) error) error, words func(doc string) []string, inVocab func(w string) bool) (Share, error) {
	if docs == nil || words == nil || inVocab == nil {
		return Share{}, fmt.Errorf("%w: nil function", ErrArgument)
	}
	c := newCounter(MaxTracked)
	var s Share
	err := docs(func(doc string) error {
		if s.Docs == math.MaxInt64 {
			return fmt.Errorf("%w: document count overflows", ErrArgument)
		}
		s.Docs++
		for _, w := range words(doc) {
			if s.Tokens == math.MaxInt64 {
				return fmt.Errorf("%w: token count overflows", ErrArgument)
			}
			s.Tokens++
			if inVocab(w) {
				continue
			}
			s.OOV++
			c.add(clipKey(w))
		}
		return nil
	})
	s.Types = c.types
	s.Top = c.top(TopOOV)
	return s, err
}

func clipKey(w string) string {
	if len(w) <= maxKeyBytes {
		return w
	}
	return strings.ToValidUTF8(w[:maxKeyBytes], "") + "…"
}

// counter is the Space-Saving summary (Metwally, Agrawal, El Abbadi 2005):
// exact counts until it holds max words; then a new word replaces the word
// with the smallest count c and starts at c+1 with error c.
type counter struct {
	max   int
	index map[string]int // word -> position in h
	h     minHeap
	types int64
}

func newCounter(max int) *counter {
	idx := make(map[string]int)
	return &counter{max: max, index: idx, h: minHeap{index: idx}}
}

func (c *counter) add(w string) {
	if i, ok := c.index[w]; ok {
		if c.h.e[i].Count < math.MaxInt64 {
			c.h.e[i].Count++
		}
		heap.Fix(&c.h, i)
		return
	}
	if len(c.h.e) < c.max {
		c.types++
		heap.Push(&c.h, TypeCount{Word: strings.Clone(w), Count: 1})
		return
	}
	// Evict the minimum (the root) in place.
	root := c.h.e[0]
	delete(c.index, root.Word)
	c.h.e[0] = TypeCount{Word: strings.Clone(w), Count: root.Count + 1, Err: root.Count}
	c.index[c.h.e[0].Word] = 0
	heap.Fix(&c.h, 0)
}

func (c *counter) top(n int) []TypeCount {
	out := slices.Clone(c.h.e)
	slices.SortFunc(out, func(a, b TypeCount) int {
		if d := cmp.Compare(b.Count, a.Count); d != 0 {
			return d
		}
		return strings.Compare(a.Word, b.Word)
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// minHeap orders TypeCounts by Count and keeps index (word -> position)
// up to date as elements move.
type minHeap struct {
	e     []TypeCount
	index map[string]int
}

func (h *minHeap) Len() int           { return len(h.e) }
func (h *minHeap) Less(i, j int) bool { return h.e[i].Count < h.e[j].Count }
func (h *minHeap) Swap(i, j int) {
	h.e[i], h.e[j] = h.e[j], h.e[i]
	h.index[h.e[i].Word] = i
	h.index[h.e[j].Word] = j
}
func (h *minHeap) Push(x any) {
	t := x.(TypeCount)
	h.index[t.Word] = len(h.e)
	h.e = append(h.e, t)
}
func (h *minHeap) Pop() any {
	t := h.e[len(h.e)-1]
	h.e = h.e[:len(h.e)-1]
	delete(h.index, t.Word)
	return t
}
