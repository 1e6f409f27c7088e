package core_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/core"
)

// privatizeShapes are the tokenizer's adversarial input shapes (see
// tokenize/shapes_test.go): long runs without whitespace of each character
// class the tokenizer treats specially, and prose for comparison.
var privatizeShapes = []struct{ name, unit string }{
	{"words", "the quick brown fox jumps over the lazy dog "},
	{"letters", "abcdefghij"},
	{"emoji", "🙂"},
	{"nul", "\x00"},
	{"digits", "0123456789"},
	{"at", "@"},
	{"dots", "."},
	{"a.a.", "a."},
	{"a@a@", "a@"},
	{"@a@a", "@a"},
	{"1.1.", "1."},
	{"x'x'", "x'"},
	{"x’x’", "x’"},
	{"dashes", "-"},
	{"invalid", "\xff"},
	{"brackets", "(a@b)"},
	{"http-prefix", "http:/"},
	{"mixed", "a.1b'c-🙂_x,2’é@("},
}

// BenchmarkPrivatizeShapes privatizes each shape whole with BRR at the
// default ε through the public API. Linear time shows as ns/byte that does
// not grow with the size. Prose at 16 MiB is ~3.7M words at ~25 µs each:
// run that size with -benchtime=1x.
func BenchmarkPrivatizeShapes(b *testing.B) {
	a, err := assets.Default()
	if err != nil {
		b.Fatal(err)
	}
	m, err := core.NewMechanism(core.NameBRR, a, 0.4845, core.MechanismOptions{})
	if err != nil {
		b.Fatal(err)
	}
	p, err := core.NewTextPrivatizer(m, a, core.TextOptions{MaxTextBytes: 32 << 20})
	if err != nil {
		b.Fatal(err)
	}
	src := core.NewSecureSource()
	for _, sh := range privatizeShapes {
		for _, sz := range []struct {
			name string
			n    int
		}{{"10kB", 10_000}, {"1MB", 1_000_000}, {"16MiB", 16 << 20}} {
			b.Run(fmt.Sprintf("%s/%s", sh.name, sz.name), func(b *testing.B) {
				text := strings.Repeat(sh.unit, sz.n/len(sh.unit)+1)[:sz.n]
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
