package tokenize

import (
	"fmt"
	"testing"
)

// benchSizes are the text sizes of the shape benchmarks: a message, a
// document, and DefaultMaxTextBytes of the privatizer.
var benchSizes = []struct {
	name string
	n    int
}{{"10kB", 10_000}, {"1MB", 1_000_000}, {"16MiB", 16 << 20}}

// BenchmarkTokenizeShapes streams the tokens of each adversarial shape
// with a Scanner. Linear time shows as ns/byte that does not grow with the
// size.
func BenchmarkTokenizeShapes(b *testing.B) {
	for _, sh := range adversarialShapes {
		for _, sz := range benchSizes {
			b.Run(fmt.Sprintf("%s/%s", sh.name, sz.name), func(b *testing.B) {
				s := shapeText(sh.unit, sz.n)
				b.SetBytes(int64(len(s)))
				var sc Scanner
				tokens := 0
				for b.Loop() {
					sc.Reset(s)
					for _, ok := sc.Next(); ok; _, ok = sc.Next() {
						tokens++
					}
				}
				if tokens == 0 {
					b.Fatal("no tokens")
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s)), "ns/byte")
			})
		}
	}
}
