package privatize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wordveil/wordveil/internal/tokenize"
)

// Memory. A text's output is written twice by the same code: once into a
// sink that only counts bytes, then into a builder grown once to exactly
// that count, so the output string is the only allocation its size (a
// builder grown by appending allocates several times the output, and the
// output of a text of 1-byte tokens, each replaced by a word, is about 7
// times the text). The OOV and punctuation draws, which the second pass
// must repeat exactly, come from a ChaCha8 stream keyed with 32 bytes
// drawn from the caller's source per text (a CSPRNG keyed from it), so
// each pass replays it from the key.

// sink receives a text's output: counted only (b nil) or written to b.
type sink struct {
	b *strings.Builder
	n int
}

func (s *sink) str(x string) {
	s.n += len(x)
	if s.b != nil {
		s.b.WriteString(x)
	}
}

func (s *sink) rune(r rune) {
	n := utf8.RuneLen(r)
	if n < 0 {
		n = utf8.RuneLen(utf8.RuneError) // what WriteRune writes instead
	}
	s.n += n
	if s.b != nil {
		s.b.WriteRune(r)
	}
}

// word writes the vocabulary word w (lower case) in capitalization class
// c — what tokenize.Apply(c, w) returns — with every ASCII apostrophe
// written as ’ when curly is set, without building the string.
func (s *sink) word(c tokenize.Case, w string, curly bool) {
	if c != tokenize.Title && c != tokenize.Upper && (!curly || strings.IndexByte(w, '\'') < 0) {
		s.str(w) // written as it is: the common case
		return
	}
	for i, r := range w {
		switch {
		case c == tokenize.Upper:
			r = unicode.ToUpper(r)
		case c == tokenize.Title && i == 0:
			r = unicode.ToTitle(r)
		}
		if curly && r == '\'' {
			r = '’'
		}
		s.rune(r)
	}
}

// bitset holds one bit per content segment of a block: whether pass 1
// found it in the vocabulary (or the stand-ins), so the output passes
// need not look it up again.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }
func countSegments(tk tokenize.Token) int {
	if tk.Kind != tokenize.Word {
		return 1
	}
	return strings.Count(tk.Text, "-") + 1
}
