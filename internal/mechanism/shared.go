package mechanism

import (
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

// assetShared is what the mechanisms New builds derive from their asset
// alone, built once per asset and shared by every mechanism built on it
// (issue 26: a second open on the same asset shares the asset's memory;
// before, each open rebuilt these, 0.6-2 MiB and 6-13 ms on the default
// asset): the default output vocabulary (DefaultOutputs), the structures
// that restrict BRR, TEM on the codes, 1-DG and 1-DT to it, and P_avg of
// the codes and of the lists. Nothing here depends on ε, on Options other than the default
// output vocabulary, or on any randomness, so sharing it changes no output.
//
// It holds no pointer to the asset itself (only to the asset's codes and
// lists, through what it builds), so that the asset can be collected; the
// entry of sharedByAsset is then dropped by a cleanup. The asset must not
// be modified after New first used it, which the decoders and every caller
// of New already guarantee (a decoded asset is read-only).
type assetShared struct {
	outOnce sync.Once
	out     atomic.Pointer[Outputs] // DefaultOutputs; nil until built or when there is no exclusion list
	outErr  error

	codesMeanOnce sync.Once
	codesMean     float64
	listsMeanOnce sync.Once
	listsMean     float64
	// storedListsMean is the asset's stored P_avg of its lists
	// (wva.ListsInfo.MeanDistance), 0 when it has none.
	storedListsMean float64

	outIdxOnce sync.Once // the asset's codes without the default outputs' exclusions (BRR, TEM-Hamming)
	outIdx     *hamming.Index
	outIdxErr  error

	listOnce sync.Once // 1-DG's and 1-DT's positions of the default outputs
	listOut  *listOutputs
}

// sharedByAsset maps weak.Pointer[wva.Asset] to *assetShared: weak, so
// that the map does not keep an asset (3-9 MiB decoded) alive.
var sharedByAsset sync.Map

// sharedOf returns a's shared state (nil for nil a).
func sharedOf(a *wva.Asset) *assetShared {
	if a == nil {
		return nil
	}
	k := weak.Make(a)
	if v, ok := sharedByAsset.Load(k); ok {
		return v.(*assetShared)
	}
	ns := new(assetShared)
	ns.storedListsMean, _ = a.StoredListsMean()
	v, loaded := sharedByAsset.LoadOrStore(k, ns)
	if !loaded {
		runtime.AddCleanup(a, func(k weak.Pointer[wva.Asset]) { sharedByAsset.Delete(k) }, k)
	}
	return v.(*assetShared)
}

// defaultOutputs is DefaultOutputs of a (whose shared state s is), built
// once.
func (s *assetShared) defaultOutputs(a *wva.Asset) (*Outputs, error) {
	s.outOnce.Do(func() {
		o, err := buildDefaultOutputs(a)
		s.out.Store(o)
		s.outErr = err
	})
	return s.out.Load(), s.outErr
}

// isDefault reports whether o is the default output vocabulary that s
// shares (the same pointer: DefaultOutputs returns one per asset).
func (s *assetShared) isDefault(o *Outputs) bool {
	return s != nil && o != nil && s.out.Load() == o
}

// codesMeanOf is hamming.MeanDistance(codes), computed once; codes are
// always the asset's.
func (s *assetShared) codesMeanOf(codes []hamming.Code) float64 {
	s.codesMeanOnce.Do(func() { s.codesMean = hamming.MeanDistance(codes) })
	return s.codesMean
}

// listsMeanOf is listsMean(lists): the value the asset stores when it has
// one (its writer computed it from these lists), else computed once;
// lists are always the asset's.
func (s *assetShared) listsMeanOf(lists []wva.Permutation) float64 {
	s.listsMeanOnce.Do(func() {
		if s.storedListsMean > 0 {
			s.listsMean = s.storedListsMean
			return
		}
		s.listsMean = listsMean(lists)
	})
	return s.listsMean
}

// outputIndexOf is outputIndex(x, o) for the default outputs o, built
// once and shared by every mechanism over the codes (x is an index over
// the asset's codes; any such index gives the same result).
func (s *assetShared) outputIndexOf(x *hamming.Index, o *Outputs) (*hamming.Index, error) {
	s.outIdxOnce.Do(func() { s.outIdx, s.outIdxErr = outputIndex(x, o) })
	return s.outIdx, s.outIdxErr
}

// listOutputsOf is newListOutputs(lists, o) for the default outputs o,
// built once (lists are the asset's).
func (s *assetShared) listOutputsOf(lists []wva.Permutation, o *Outputs) *listOutputs {
	s.listOnce.Do(func() { s.listOut = newListOutputs(lists, o) })
	return s.listOut
}

// sharer is a mechanism that uses its asset's shared state: BRR, TEM on
// the codes, 1-DG and 1-DT.
type sharer interface {
	setShared(*assetShared)
}

// share gives m, just built by newMechanism on the asset whose shared
// state s is, access to s, if m uses it.
func share(m Mechanism, s *assetShared) {
	if m, ok := m.(sharer); ok {
		m.setShared(s)
	}
}

func (b *brrMech) setShared(s *assetShared)        { b.sh = s }
func (t *temHammingMech) setShared(s *assetShared) { t.sh = s }
func (m *dgMech) setShared(s *assetShared)         { m.sh = s }
func (m *dtMech) setShared(s *assetShared)         { m.sh = s }
