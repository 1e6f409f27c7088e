package mechanism

import (
	"math"
	"math/bits"
	"slices"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

// syntheticCodes is dpexact.SyntheticCodes as hamming codes (the L bits in
// word 0, the other 256−L bits zero), with the low words themselves.
func syntheticCodes(n, L int, seed string) ([]uint64, []hamming.Code) {
	low := dpexact.SyntheticCodes(n, L, seed)
	codes := make([]hamming.Code, n)
	for i, c := range low {
		codes[i][0] = c
	}
	return low, codes
}

func hammingMatrix(low []uint64) [][]float64 {
	d := newMatrix(len(low))
	for a := range low {
		for b := range low {
			d[a][b] = float64(bits.OnesCount64(low[a] ^ low[b]))
		}
	}
	return d
}

func newIndex(t testing.TB, codes []hamming.Code) *hamming.Index {
	t.Helper()
	x, err := hamming.NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func defaultAsset(t testing.TB) *wva.Asset {
	t.Helper()
	a, err := wva.Default()
	if err != nil {
		t.Fatalf("default asset: %v", err)
	}
	if a.TEM == nil || len(a.Lists) == 0 {
		t.Fatal("default asset lacks TEM or 1-Diffractor lists")
	}
	return a
}

// assetSubset is a few dozen words of the default asset restricted to
// themselves: a dense neighbourhood (the 24 nearest members of "good"'s
// TEM ball) plus 12 words spread over the id range. Its TEM lists are the
// stored balls restricted to the subset (still exact and symmetric), its
// 1-Diffractor lists the stored lists restricted to the subset in the same
// order, and dist the quantized distances (+Inf beyond γ_max).
type assetSubsetT struct {
	ids      []int // subset id → asset id
	tem      *wva.TEMLists
	lists    []wva.Permutation
	pos      [][]int // pos[l][w]
	dist     [][]float64
	auditD   [][]float64 // dist with +Inf replaced by the (G+1)·step lower bound
	gammaMax float64
}

var (
	subsetOnce sync.Once
	subset     *assetSubsetT
	subsetErr  error
)

func assetSubset(t testing.TB) *assetSubsetT {
	t.Helper()
	a := defaultAsset(t)
	subsetOnce.Do(func() { subset, subsetErr = buildAssetSubset(a) })
	if subsetErr != nil {
		t.Fatal(subsetErr)
	}
	return subset
}

func buildAssetSubset(a *wva.Asset) (*assetSubsetT, error) {
	seed, ok := a.Lookup("good")
	if !ok {
		seed = 100
	}
	s := &assetSubsetT{}
	for _, nb := range a.TEM.Ball(seed, nil) {
		if len(s.ids) == 24 {
			break
		}
		s.ids = append(s.ids, int(nb.ID))
	}
	for k := range 12 {
		id := 37 + k*(a.Len()-100)/12
		if !slices.Contains(s.ids, id) {
			s.ids = append(s.ids, id)
		}
	}
	n := len(s.ids)
	local := make(map[int]int, n)
	for i, id := range s.ids {
		local[id] = i
	}
	step := a.TEM.Step()
	s.gammaMax = a.TEM.GammaMax()
	s.dist, s.auditD = newMatrix(n), newMatrix(n)
	balls := make([][]wva.Neighbor, n)
	for i, id := range s.ids {
		for j := range n {
			s.dist[i][j] = math.Inf(1)
			s.auditD[i][j] = float64(a.TEM.MaxSteps()+1) * step
		}
		for _, nb := range a.TEM.Ball(id, nil) {
			if j, ok := local[int(nb.ID)]; ok {
				balls[i] = append(balls[i], wva.Neighbor{ID: uint32(j), Dist: nb.Dist})
				s.dist[i][j] = float64(nb.Dist) * step
				s.auditD[i][j] = s.dist[i][j]
			}
		}
	}
	var err error
	if s.tem, err = wva.NewTEMLists(n, step, a.TEM.MaxSteps(), balls); err != nil {
		return nil, err
	}
	for _, l := range a.Lists {
		order := make([]uint32, 0, n)
		for _, id := range l.Order {
			if j, ok := local[int(id)]; ok {
				order = append(order, uint32(j))
			}
		}
		p, err := wva.NewPermutation(order)
		if err != nil {
			return nil, err
		}
		s.lists = append(s.lists, p)
		pos := make([]int, n)
		for w, q := range p.Pos {
			pos[w] = int(q)
		}
		s.pos = append(s.pos, pos)
	}
	return s, nil
}

// syntheticList is dpexact.SyntheticOrder as a permutation, with each
// word's position.
func syntheticList(t testing.TB, n int, seed string) (wva.Permutation, []int) {
	t.Helper()
	p, err := wva.NewPermutation(dpexact.SyntheticOrder(n, seed))
	if err != nil {
		t.Fatal(err)
	}
	pos := make([]int, n)
	for w, q := range p.Pos {
		pos[w] = int(q)
	}
	return p, pos
}

// testOutputs is the output vocabulary of n words without excluded, and
// the same set as dpexact takes it.
func testOutputs(t testing.TB, n int, excluded ...int) (*Outputs, []bool) {
	t.Helper()
	o, err := NewOutputs(n, excluded)
	if err != nil {
		t.Fatal(err)
	}
	allowed := make([]bool, n)
	for i := range allowed {
		allowed[i] = o.Allowed(i)
	}
	return o, allowed
}
