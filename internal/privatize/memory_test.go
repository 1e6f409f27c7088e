package privatize_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/shapes"
	"github.com/wordveil/wordveil/internal/wva"
)

// Memory bound of docs/TEXT_PRIVACY.md ("Memory"): privatizing a text
// allocates at most textMemoryFactor times its size, plus a constant.
const (
	textMemoryFactor = 8
	textMemorySlack  = 16 << 10
)

// memoryShapes are the tokenizer's adversarial shapes and the ones that
// stress the output: one giant word, many one-letter words, hyphenated
// and clitic pieces, capitalized and upper-case words with curly
// apostrophes.
func memoryShapes() []shapes.Shape {
	return append(append([]shapes.Shape(nil), shapes.All...),
		shapes.Shape{Name: "giant-word", Unit: "a"},
		shapes.Shape{Name: "tiny-words", Unit: "a "},
		shapes.Shape{Name: "hyphens", Unit: "a-"},
		shapes.Shape{Name: "clitics", Unit: "don't "},
		shapes.Shape{Name: "title", Unit: "The "},
		shapes.Shape{Name: "upper-curly", Unit: "I’M "},
		shapes.Shape{Name: "long-line-prose", Unit: strings.Repeat("the quick brown fox ", 50) + "\n"},
	)
}

// TestTextMemory privatizes each shape whole and counts the bytes the Go
// heap allocated (runtime.MemStats.TotalAlloc: every allocation, garbage
// included; no timing). The output alone is about 7.24 times a text of
// 1-byte OOV tokens (NUL bytes): each becomes a vocabulary word, 7.24
// bytes on average on the default asset. Before the output was sized
// exactly, that shape allocated 33 times its size.
func TestTextMemory(t *testing.T) {
	size := 1 << 20
	options := []privatize.Options{{}, {PrivatizePunctuation: true, OOV: privatize.OOVPlaceholder}}
	if testing.Short() {
		size, options = 32<<10, options[:1]
	}
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	m, err := mechanism.New("1dg", a, 0.05, mechanism.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range options {
		p, err := privatize.New(m, a, opt)
		if err != nil {
			t.Fatal(err)
		}
		src := seeded.Key([32]byte{7})
		for _, sh := range memoryShapes() {
			text := shapes.Text(sh.Unit, size)
			var r *privatize.Result
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			r, err = p.Privatize(text, src)
			runtime.ReadMemStats(&m1)
			if err != nil {
				t.Fatalf("%s: %v", sh.Name, err)
			}
			got := m1.TotalAlloc - m0.TotalAlloc
			t.Logf("%-16s %-12s allocated %5.2f× the text, output %5.2f×", sh.Name, opt.OOV, float64(got)/float64(len(text)), float64(len(r.Text))/float64(len(text)))
			if limit := uint64(textMemoryFactor*len(text) + textMemorySlack); got > limit {
				t.Errorf("%s (%s): allocated %d bytes for %d, above %d", sh.Name, opt.OOV, got, len(text), limit)
			}
			// Besides the output, at most 3 bytes per input byte: the word
			// ids (4 bytes per word, at most one word per 2 bytes), a bit
			// per content segment and lookup keys of words over 32 bytes.
			if limit := uint64(len(r.Text) + 3*len(text) + textMemorySlack); got > limit {
				t.Errorf("%s (%s): allocated %d bytes, output %d: more than 3 bytes per input byte besides the output", sh.Name, opt.OOV, got, len(r.Text))
			}
		}
	}
}
