package floatmech

import (
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// The benchmarks run on the real GloVe vectors of a research asset when
// WORDVEIL_FLOATS names one (`wordveil-research assets build -floats -out F`), and
// otherwise on 50,000 random Gaussian vectors of dimension 100 with
// GloVe-like norms (the cost of an exact search does not depend on the
// data). BRR runs beside them on the embedded default asset, in the same
// process, so the ratios in docs/BENCHMARKS.md come from one run.

var (
	benchOnce sync.Once
	benchEmb  *Embedding
	benchWs   []int
)

func benchEmbedding(b *testing.B) (*Embedding, []int) {
	benchOnce.Do(func() {
		if path := os.Getenv("WORDVEIL_FLOATS"); path != "" {
			raw, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			a, err := wva.DecodeWith(raw, wva.DecodeOptions{SkipTEM: true})
			if err != nil {
				b.Fatal(err)
			}
			if benchEmb, err = FromAsset(a); err != nil {
				b.Fatal(err)
			}
		} else {
			benchEmb = randomEmbedding(b, 50000, 100, 11)
		}
		r := rand.New(rand.NewPCG(12, 13))
		benchWs = make([]int, 1024)
		for i := range benchWs {
			benchWs[i] = r.IntN(benchEmb.Len())
		}
	})
	return benchEmb, benchWs
}

// BenchmarkMechanisms reports ns per privatized word for each mechanism
// at N = 50,000, d = 100, on the batch path with one worker and with all
// cores, and BRR (Hamming, exact scan) on the default asset.
func BenchmarkMechanisms(b *testing.B) {
	e, ws := benchEmbedding(b)
	const eps = 1.0
	mechs := []struct {
		name string
		m    func() (Batcher, error)
	}{
		{"Madlib", func() (Batcher, error) { return NewMadlib(e, 10) }},
		{"Mahalanobis", func() (Batcher, error) { return NewMahalanobis(e, 10, DefaultLambda) }},
		{"Vickrey", func() (Batcher, error) { return NewVickrey(e, 10, 0.75) }},
		{"TrLaplace", func() (Batcher, error) { return NewTrLaplace(e, eps, 0, 0) }},
		{"Laplace", func() (Batcher, error) { return NewLaplace(e, eps, 0) }},
		{"Gaussian", func() (Batcher, error) { return NewGaussian(e, eps, 0, 0) }},
	}
	for _, mc := range mechs {
		m, err := mc.m()
		if err != nil {
			b.Fatal(err)
		}
		for _, workers := range []int{1, 0} {
			name := mc.name + "/workers=1"
			if workers == 0 {
				name = mc.name + "/workers=all"
			}
			b.Run(name, func(b *testing.B) {
				out := make([]int, len(ws))
				src := seeded(1)
				b.ResetTimer()
				for range b.N {
					if err := m.PrivatizeBatch(ws, out, src, workers); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ws)), "ns/word")
			})
		}
		b.Run(mc.name+"/single", func(b *testing.B) {
			src := seeded(2)
			b.ResetTimer()
			for i := range b.N {
				if _, err := m.Privatize(ws[i%len(ws)], src); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/word")
		})
	}
	b.Run("BRR/single", func(b *testing.B) {
		a, err := wva.Default()
		if err != nil {
			b.Fatal(err)
		}
		x, err := hamming.NewIndex(a.Codes)
		if err != nil {
			b.Fatal(err)
		}
		m, err := mechanism.NewBRR(x, 0.5)
		if err != nil {
			b.Fatal(err)
		}
		src := seeded(3)
		b.ResetTimer()
		for i := range b.N {
			if _, err := m.Privatize(ws[i%len(ws)], src); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/word")
	})
}
