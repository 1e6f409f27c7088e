package mechanism

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// copyOutputs is how BRR and TEM on the codes searched an output
// vocabulary before hamming.Index.Without: an index over a copy of the
// allowed codes, whose i-th id stands for word ids[i]. The functions below
// are those mechanisms' Privatize as they were then, kept as the reference
// the restricted mechanisms must match output for output and draw for
// draw.
type copyOutputs struct {
	x   *hamming.Index
	ids []int32
}

func newCopyOutputs(t testing.TB, codes []hamming.Code, o *Outputs) copyOutputs {
	t.Helper()
	sub := make([]hamming.Code, o.Len())
	for i, id := range o.IDs() {
		sub[i] = codes[id]
	}
	x, err := hamming.NewIndex(sub)
	if err != nil {
		t.Fatal(err)
	}
	return copyOutputs{x, o.IDs()}
}

// refBRR is BRR's Privatize over the copy.
func refBRR(b *brrMech, c copyOutputs, w int, src rand.Source) (int, error) {
	q := b.index.Codes()[w]
	for i := range q {
		q[i] ^= sample.Mask64(src, b.thresh)
	}
	nb, err := c.x.Nearest(q, hamming.Options{Ties: b.ties, Rand: src, ExpectedRadius: b.radius})
	if err != nil {
		return -1, err
	}
	return int(c.ids[nb.ID]), nil
}

// refTEM is TEM (Hamming)'s Privatize over the copy; the bucket draw
// (drawBucket) is t's own, which reads only counts, ε, γ and |A|.
func refTEM(t *temHammingMech, c copyOutputs, w int, src rand.Source) (int, error) {
	sc := new(temHammingScratch)
	q := t.index.Codes()[w]
	if c.x.RangeCanBeatScan(t.r) {
		nbrs, err := c.x.Range(nil, q, t.r, hamming.Options{ExpectedRadius: max(t.r, 1)})
		if err != nil {
			return -1, err
		}
		for _, nb := range nbrs {
			sc.count[nb.Dist]++
		}
		bucket, bottom, err := t.drawBucket(sc, len(nbrs), t.inputAllowed(w), src)
		if err != nil {
			return -1, err
		}
		if bottom {
			slices.SortFunc(nbrs, func(a, b hamming.Neighbor) int { return cmp.Compare(a.ID, b.ID) })
			j := sample.UniformInt(src, c.x.Len()-len(nbrs))
			for _, nb := range nbrs {
				if int(nb.ID) > j {
					break
				}
				j++
			}
			return int(c.ids[j]), nil
		}
		j := sample.UniformInt(src, sc.count[bucket])
		for _, nb := range nbrs {
			if int(nb.Dist) == bucket {
				if j == 0 {
					return int(c.ids[nb.ID]), nil
				}
				j--
			}
		}
		return -1, fmt.Errorf("bucket %d miscounted", bucket)
	}
	h := c.x.Histogram(nil, q)
	ball := 0
	for d := 0; d <= t.r; d++ {
		sc.count[d] = h.Count(d)
		ball += sc.count[d]
	}
	bucket, bottom, err := t.drawBucket(sc, ball, t.inputAllowed(w), src)
	if err != nil {
		return -1, err
	}
	lo, hi, size := bucket, bucket, sc.count[bucket]
	if bottom {
		lo, hi, size = t.r+1, hamming.Bits, c.x.Len()-ball
	}
	i, err := h.Select(lo, hi, sample.UniformInt(src, size))
	if err != nil {
		return -1, err
	}
	return int(c.ids[i]), nil
}

// TestRestrictedMatchesCopy: on the default asset, BRR and TEM on the
// codes restricted to the default output vocabulary (shared per asset, as
// New builds them) and to another one (Restrict's own path) release, for
// the same seeded source and input, exactly what they released when they
// searched a copy of the allowed codes, and draw the same values: the
// source's next value after every word is compared too. The inputs mix
// excluded words (the ⊥-only case of TEM), frequent words and words spread
// over the ids. TEM's ε values cover both of its ways of listing the ball
// (Range and the histogram); the test fails if either goes unexercised.
func TestRestrictedMatchesCopy(t *testing.T) {
	a := defaultAsset(t)
	def, err := DefaultOutputs(a)
	if err != nil || def == nil {
		t.Fatalf("default outputs: %v, %v", def, err)
	}
	other, err := NewOutputs(a.Len(), assetExclusions(t, a.Len()))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := hamming.NewIndex(a.Codes)
	if err != nil {
		t.Fatal(err)
	}
	sh := sharedOf(a)
	words := func(o *Outputs, n int) []int {
		var ws []int
		for id := range a.Len() {
			if !o.Allowed(id) && len(ws) < n/4 {
				ws = append(ws, id)
			}
		}
		for i := 0; len(ws) < n; i++ {
			ws = append(ws, (i*7919)%a.Len())
		}
		return ws
	}
	nBRR, nTEM := 1500, 150
	if testing.Short() {
		nBRR, nTEM = 400, 40
	}
	ways := map[bool]int{}
	for _, o := range []*Outputs{def, other} {
		name := "default"
		if o != def {
			name = "other"
		}
		ref := newCopyOutputs(t, a.Codes, o)
		for _, eps := range []float64{0.05, 0.3, 0.7, 2, 6} {
			t.Run(fmt.Sprintf("%s/BRR/eps=%v", name, eps), func(t *testing.T) {
				m, err := newBRR(idx, eps)
				if err != nil {
					t.Fatal(err)
				}
				share(m, sh)
				r, err := Restrict(m, o)
				if err != nil {
					t.Fatal(err)
				}
				b := r.(*brrMech)
				compareRef(t, "BRR", words(o, nBRR), r, func(w int, src rand.Source) (int, error) { return refBRR(b, ref, w, src) })
			})
		}
		for _, eps := range []float64{0.14, 0.5, 0.8, 1, 2} {
			t.Run(fmt.Sprintf("%s/TEM-Hamming/eps=%v", name, eps), func(t *testing.T) {
				m, err := newTEMHamming(idx, eps, TEMOptions{})
				if err != nil {
					t.Fatal(err)
				}
				share(m, sh)
				r, err := Restrict(m, o)
				if err != nil {
					t.Fatal(err)
				}
				th := r.(*temHammingMech)
				ways[ref.x.RangeCanBeatScan(th.r)]++
				compareRef(t, "TEM", words(o, nTEM), r, func(w int, src rand.Source) (int, error) { return refTEM(th, ref, w, src) })
			})
		}
	}
	if ways[true] == 0 || ways[false] == 0 {
		t.Errorf("TEM's ways of listing the ball exercised: Range %d times, histogram %d: both needed", ways[true], ways[false])
	}
}

// compareRef privatizes each word with m and with ref from twin seeded
// sources and fails at the first output or draw that differs.
func compareRef(t *testing.T, label string, words []int, m Mechanism, ref func(int, rand.Source) (int, error)) {
	t.Helper()
	gs := seeded.Key(stattest.Seed("restrict-ref-" + label))
	ws := seeded.Key(stattest.Seed("restrict-ref-" + label))
	for _, w := range words {
		got, gerr := m.Privatize(w, gs)
		want, werr := ref(w, ws)
		if gerr != nil || werr != nil || got != want {
			t.Fatalf("word %d: %d (%v), before %d (%v)", w, got, gerr, want, werr)
		}
		if gs.Uint64() != ws.Uint64() {
			t.Fatalf("word %d: the source was drawn from differently", w)
		}
	}
}

// TestOutputIndexNoCopy: restricting the asset's codes to the default
// output vocabulary allocates for the excluded words only (their ids and a
// copy of their codes, 36 bytes each: under 10 KiB), not a copy of the
// allowed codes. The negative control: the copy the mechanisms
// made before allocates over 1.5 MB, which the same measure sees.
func TestOutputIndexNoCopy(t *testing.T) {
	a := defaultAsset(t)
	o, err := DefaultOutputs(a)
	if err != nil || o == nil {
		t.Fatalf("default outputs: %v, %v", o, err)
	}
	x, err := hamming.NewIndex(a.Codes)
	if err != nil {
		t.Fatal(err)
	}
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	var out *hamming.Index
	got := allocated(func() { out, err = outputIndex(x, o) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("outputIndex allocated %d bytes for %d excluded words", got, o.Vocabulary()-o.Len())
	if got > 16<<10 {
		t.Errorf("outputIndex allocated %d bytes, want at most 16 KiB (%d excluded words)", got, o.Vocabulary()-o.Len())
	}
	if out.Len() != o.Len() {
		t.Errorf("restricted index searches %d words, the outputs allow %d", out.Len(), o.Len())
	}
	if copied := allocated(func() { newCopyOutputs(t, a.Codes, o) }); copied < 1500000 {
		t.Errorf("negative control: the copy allocated %d bytes, want over 1.5 MB", copied)
	}
}
