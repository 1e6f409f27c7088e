package ctxattack

import (
	"container/heap"
	"math"
)

// Candidates returns the k inputs of largest one-word posterior score
// prior(w)·col(w) (ties to the lower id; words of score 0 never), with
// log col(w), in decreasing score, and the share of the posterior mass
// Σ prior·col outside them. It also returns the best score and how many
// words reach it, for the one-word attacker's credit.
func Candidates(col, prior []float64, k int) (p Position, pruned, best float64, nBest int) {
	h := &minHeap{}
	total := 0.0
	best = math.Inf(-1)
	for w, c := range col {
		s := prior[w] * c
		if !(s > 0) {
			continue
		}
		total += s
		switch {
		case s > best:
			best, nBest = s, 1
		case s == best:
			nBest++
		}
		if h.Len() < k {
			heap.Push(h, scored{w, s})
		} else if s > (*h)[0].s { // equal scores keep the lower id, seen first
			(*h)[0] = scored{w, s}
			heap.Fix(h, 0)
		}
	}
	kept := 0.0
	n := h.Len()
	p.Words, p.LogLaw = make([]int, n), make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		x := heap.Pop(h).(scored)
		p.Words[i], p.LogLaw[i] = x.w, math.Log(col[x.w])
		kept += x.s
	}
	if total > 0 {
		pruned = max(0, 1-kept/total)
	}
	return p, pruned, best, nBest
}

type scored struct {
	w int
	s float64
}

// minHeap keeps the k best: its root is the worst kept (the lowest
// score, and among equal scores the higher id).
type minHeap []scored

func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(i, j int) bool {
	if h[i].s != h[j].s {
		return h[i].s < h[j].s
	}
	return h[i].w > h[j].w
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
