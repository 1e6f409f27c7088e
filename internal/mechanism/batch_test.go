package mechanism

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/stattest"
)

// TestBRRBatchMatchesReplay checks PrivatizeBatch on the default asset
// against a brute-force replay of its documented draws: per run of
// hamming.MaxBatch words, every word's noise in word order, then per word
// in order one uniform draw among all its minimizers (in id order) when
// there are several. Same seed, same outputs, word for word.
func TestBRRBatchMatchesReplay(t *testing.T) {
	a := defaultAsset(t)
	x := newIndex(t, a.Codes)
	m, err := newBRR(x, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(39, 2))
	ws := make([]int32, 2*hamming.MaxBatch+7)
	for i := range ws {
		ws[i] = int32(r.IntN(a.Len()))
	}
	ws[1] = ws[0] // a repeated word gets fresh noise
	got := slices.Clone(ws)
	seed := stattest.Seed("brr-batch-replay")
	if err := m.PrivatizeBatch(got, rand.NewChaCha8(seed)); err != nil {
		t.Fatal(err)
	}
	want := replayBatch(a.Codes, ws, m.thresh, rand.NewChaCha8(seed))
	if !slices.Equal(got, want) {
		t.Fatalf("PrivatizeBatch %v, replay %v", got, want)
	}
}

// replayBatch is PrivatizeBatch's documented draws with a brute-force
// search.
func replayBatch(codes []hamming.Code, ws []int32, thresh uint64, src rand.Source) []int32 {
	out := make([]int32, len(ws))
	for lo := 0; lo < len(ws); lo += hamming.MaxBatch {
		run := ws[lo:min(len(ws), lo+hamming.MaxBatch)]
		qs := make([]hamming.Code, len(run))
		for i, w := range run {
			qs[i] = codes[w]
			for k := range qs[i] {
				qs[i][k] ^= sample.Mask64(src, thresh)
			}
		}
		for i, q := range qs {
			best, ties := hamming.Bits+1, []int32(nil)
			for id, c := range codes {
				d := 0
				for k := range c {
					d += bits.OnesCount64(c[k] ^ q[k])
				}
				if d < best {
					best, ties = d, ties[:0]
				}
				if d == best {
					ties = append(ties, int32(id))
				}
			}
			out[lo+i] = ties[0]
			if len(ties) > 1 {
				out[lo+i] = ties[sample.UniformInt(src, len(ties))]
			}
		}
	}
	return out
}

// TestBRRBatchLaw is the two-sample test that PrivatizeBatch releases
// with Privatize's law: on synthetic codes full of ties (duplicates and
// codes one bit apart), the outputs of one word drawn one at a time and
// drawn in batches (the word repeated: independence within a run too)
// must not differ significantly; the controls, a batch that breaks ties
// towards the lowest id and a batch at another ε, must.
func TestBRRBatchLaw(t *testing.T) {
	_, codes := syntheticCodes(64, 12, "brr-batch-law")
	m, err := newBRR(newIndex(t, codes), 0.6)
	if err != nil {
		t.Fatal(err)
	}
	biased := *m
	biased.ties = hamming.TiesAll
	other, err := newBRR(m.index, 0.7) // a second control: another ε
	if err != nil {
		t.Fatal(err)
	}
	const draws = 40000
	src := rand.NewChaCha8(stattest.Seed("brr-batch-law"))
	for _, w := range []int{0, 1, 17} {
		one, err := stattest.SampleCounts(m, w, draws, src)
		if err != nil {
			t.Fatal(err)
		}
		batch := batchCounts(t, m, w, draws, src)
		p := twoSample(one, batch)
		if p < stattest.FalseFailureRate {
			t.Errorf("word %d: batch and one-at-a-time laws differ (p = %.3g)", w, p)
		}
		pc := twoSample(one, batchCounts(t, &biased, w, draws, src))
		if pc >= stattest.FalseFailureRate {
			t.Errorf("word %d: control: lowest-id ties not detected (p = %.3g)", w, pc)
		}
		pe := twoSample(one, batchCounts(t, other, w, draws, src))
		if pe >= stattest.FalseFailureRate {
			t.Errorf("word %d: control: ε 0.7 instead of 0.6 not detected (p = %.3g)", w, pe)
		}
		t.Logf("word %d: p = %.3g, controls p = %.3g (ties), %.3g (ε) (%d outputs seen)", w, p, pc, pe, seen(one))
	}
}

func batchCounts(t *testing.T, m *brrMech, w, draws int, src rand.Source) []int {
	t.Helper()
	counts := make([]int, m.Len())
	ws := make([]int32, 1000)
	for done := 0; done < draws; done += len(ws) {
		for i := range ws {
			ws[i] = int32(w)
		}
		if err := m.PrivatizeBatch(ws, src); err != nil {
			t.Fatal(err)
		}
		for _, y := range ws {
			counts[y]++
		}
	}
	return counts
}

// twoSample is the chi-square test of homogeneity of two samples of
// equal size, cells whose pooled count is below 10 merged into one; it
// returns the p-value.
func twoSample(a, b []int) float64 {
	var ca, cb []int
	ra, rb := 0, 0
	for i := range a {
		if a[i]+b[i] < 10 {
			ra, rb = ra+a[i], rb+b[i]
			continue
		}
		ca, cb = append(ca, a[i]), append(cb, b[i])
	}
	if ra+rb > 0 {
		ca, cb = append(ca, ra), append(cb, rb)
	}
	chi := 0.0
	for i := range ca {
		d := float64(ca[i] - cb[i])
		chi += d * d / float64(ca[i]+cb[i])
	}
	df := len(ca) - 1
	if df < 1 {
		return 1
	}
	return stattest.GammaQ(float64(df)/2, chi/2)
}

func TestBRRBatchErrors(t *testing.T) {
	_, codes := syntheticCodes(16, 8, "brr-batch-errors")
	m, err := newBRR(newIndex(t, codes), 1)
	if err != nil {
		t.Fatal(err)
	}
	src := rand.NewChaCha8(stattest.Seed("brr-batch-errors"))
	ws := []int32{1, 2, 16, 3}
	if err := m.PrivatizeBatch(ws, src); !errors.Is(err, ErrWordOutOfRange) {
		t.Fatalf("word 16 of 16: %v", err)
	}
	if !slices.Equal(ws, []int32{-1, -1, -1, -1}) {
		t.Fatalf("after an error: %v, want every word -1", ws)
	}
	ws = []int32{1, 2}
	if err := m.PrivatizeBatch(ws, nil); !errors.Is(err, ErrNilSource) || ws[0] != -1 || ws[1] != -1 {
		t.Fatalf("nil source: %v, %v", err, ws)
	}
	if err := m.PrivatizeBatch(nil, src); err != nil {
		t.Fatalf("no words: %v", err)
	}
	var _ Batcher = m
}

func seen(counts []int) int {
	n := 0
	for _, c := range counts {
		if c > 0 {
			n++
		}
	}
	return n
}
