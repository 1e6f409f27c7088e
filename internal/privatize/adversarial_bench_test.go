package privatize_test

import (
	"fmt"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/shapes"
	"github.com/wordveil/wordveil/internal/wva"
)

// BenchmarkPrivatizeShapes privatizes each shape whole with BRR at the
// default ε through the public API. Linear time shows as ns/byte that does
// not grow with the size. Prose at 16 MiB is ~3.7M words at ~25 µs each:
// run that size with -benchtime=1x.
func BenchmarkPrivatizeShapes(b *testing.B) {
	a, err := wva.Default()
	if err != nil {
		b.Fatal(err)
	}
	m, err := mechanism.New(mechanism.NameBRR, a, 0.4845, mechanism.Options{})
	if err != nil {
		b.Fatal(err)
	}
	p, err := privatize.New(m, a, privatize.Options{MaxTextBytes: 32 << 20})
	if err != nil {
		b.Fatal(err)
	}
	src := mechanism.NewSecureSource()
	for _, sh := range shapes.All {
		for _, sz := range shapes.Sizes {
			b.Run(fmt.Sprintf("%s/%s", sh.Name, sz.Name), func(b *testing.B) {
				text := shapes.Text(sh.Unit, sz.N)
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if _, err := p.Privatize(text, src); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(text)), "ns/byte")
			})
		}
	}
}
