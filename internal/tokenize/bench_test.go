package tokenize

import (
	"fmt"
	"testing"

	"github.com/wordveil/wordveil/internal/shapes"
)

// BenchmarkTokenizeShapes streams the tokens of each adversarial shape
// with a Scanner. Linear time shows as ns/byte that does not grow with the
// size.
func BenchmarkTokenizeShapes(b *testing.B) {
	for _, sh := range adversarialShapes {
		for _, sz := range shapes.Sizes {
			b.Run(fmt.Sprintf("%s/%s", sh.Name, sz.Name), func(b *testing.B) {
				s := shapeText(sh.Unit, sz.N)
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
