package privatize

import (
	"math"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/wordveil/wordveil/internal/tokenize"
)

// Memory. A text's output is written once, into a builder grown first
// to outputBound, a bound on its size, so that the output string is the
// only allocation its size (a builder grown by appending allocates several
// times the output, and the output of a text of 1-byte tokens, each
// replaced by a word, is about 7 times the text). The bound is exact
// arithmetic for everything but the OOV policy's random words, whose total
// length is bounded with probability 1 − 2⁻²⁰ (Bernstein's inequality over
// their lengths); should the draws exceed it, the builder grows, which
// costs memory, never correctness.

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

func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

// idSlice is a slice of pass 1 (word ids, classes) grown without a
// counting pass: it starts with room for a short text's words and, if
// that is not enough, grows once to a bound on what is left: a text of L
// bytes has at most L/2+1 words and pieces (two are always at least one
// byte apart, or a clitic of two bytes follows its host). So a block
// allocates at most 2 bytes per input byte for its ids (and half a byte
// for classes), never the ~5 times their final size that appending costs.
type idSlice[T int32 | uint8] struct{ s []T }

// idsFirst is the room an idSlice starts with: a keyboard's text.
const idsFirst = 64

// newIDSlices returns empty idSlices on b's arrays (a block before's,
// reuse.go) when they have room for a short text, else on new ones.
func newIDSlices(b *passBufs, classes bool) (ids *idSlice[int32], cls *idSlice[uint8]) {
	ids = &idSlice[int32]{b.ids[:0]}
	if cap(ids.s) < idsFirst {
		ids.s = make([]int32, 0, idsFirst)
	}
	if classes {
		cls = &idSlice[uint8]{b.cls[:0]}
		if cap(cls.s) < idsFirst {
			cls.s = make([]uint8, 0, idsFirst)
		}
	}
	return ids, cls
}

// add appends x; rest is the bytes of the block from the current segment
// on, texts the number of texts they span.
func (b *idSlice[T]) add(x T, rest, texts int) {
	if len(b.s) == cap(b.s) {
		grown := make([]T, len(b.s), len(b.s)+rest/2+texts+1)
		copy(grown, b.s)
		b.s = grown
	}
	b.s = append(b.s, x)
}

// textShape is what pass 1 learns about a text's output size: the bytes
// its layout writes (spaces and kept punctuation as they are, one per
// privatized mark, the hyphens between a word's segments) and its clitic
// pieces (each may add a space).
type textShape struct {
	layoutBytes int
	clitics     int
}

func (sh *textShape) layout(tk tokenize.Token, privatizePunct bool) {
	if tk.Kind == tokenize.Punct && privatizePunct {
		sh.layoutBytes++ // every privatized mark is one ASCII byte
		return
	}
	sh.layoutBytes += len(tk.Text)
}

// outLen bounds the bytes the vocabulary word w writes as any piece, in
// any capitalization class: its bytes; half again for non-ASCII ones
// (upper and title case turn a 2-byte letter into at most 3 bytes); two
// per apostrophe (written ’ on a clitic); three for a clitic token, which
// may be written as its full word ("'d" → "would").
//
// Most words are ASCII without an apostrophe, and oovLengths takes outLen
// of the whole vocabulary: such words are recognised 8 bytes at a time
// (outLenSlow is the definition, which the tests compare it with).
func outLen(w string) int {
	const high, apos, ones = 0x8080808080808080, 0x2727272727272727, 0x0101010101010101
	i := 0
	for ; i+8 <= len(w); i += 8 {
		b := w[i : i+8]
		x := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		// A byte ≥ 0x80, or a zero byte in x^apos (an apostrophe).
		if y := x ^ apos; (x|(y-ones)&^y)&high != 0 {
			return outLenSlow(w)
		}
	}
	for ; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf || c == '\'' {
			return outLenSlow(w)
		}
	}
	if len(w) > 0 && len(w) <= 3 && w[0] == 'n' && cliticIndex(w) >= 0 {
		return len(w) + 3
	}
	return len(w)
}

// outLenSlow is outLen for any word.
func outLenSlow(w string) int {
	n := len(w)
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= utf8.RuneSelf:
			return len(w) + len(w)/2 + 2*strings.Count(w, "'") + 3
		case c == '\'':
			n += 2
		}
	}
	if len(w) > 0 && len(w) <= 3 && (w[0] == '\'' || w[0] == 'n') && cliticIndex(w) >= 0 {
		n += 3
	}
	return n
}

// outputBound bounds the size of the text between from and to, with
// shape sh and responses resp: the layout, each response's outLen, a
// space per clitic, and the OOV replacements: the placeholder and a space
// each, or random words, whose total is bounded by oovLengths.
func (p *Privatizer) outputBound(sh textShape, from, to textCursor, resp []int32) int {
	n := sh.layoutBytes + sh.clitics
	for _, r := range resp[from.word:to.word] {
		n += outLen(p.asset.Word(int(r)))
	}
	oov := (to.seg - from.seg) - (to.word - from.word)
	if oov == 0 {
		return n
	}
	if p.opt.OOV == OOVPlaceholder {
		return n + oov*(len(p.opt.Placeholder)+1)
	}
	return n + p.oov.bound(p, oov)
}

// oovLengths are the mean, variance and maximum of outLen over the words
// the OOV policy draws from (uniformly), computed at the first text that
// has an OOV word.
type oovLengths struct {
	once           sync.Once
	mean, variance float64
	max            int
}

// bound returns a bound on the total outLen of k uniform draws that holds
// with probability at least 1 − 2⁻²⁰: Bernstein's inequality,
// k·mean + √(2·k·variance·L) + max·L/3 with L = ln 2²⁰.
func (o *oovLengths) bound(p *Privatizer, k int) int {
	o.once.Do(func() {
		// Integer sums (exact, as the float64 sums of these integers
		// were): outLen's sum of squares over 2^25 words fits in int64.
		var s, s2 int64
		n := 0
		for id := range p.asset.Len() {
			if p.outputs != nil && !p.outputs.Allowed(id) {
				continue
			}
			l := outLen(p.asset.Word(id))
			s += int64(l)
			s2 += int64(l) * int64(l)
			o.max = max(o.max, l)
			n++
		}
		if n > 0 {
			o.mean = float64(s) / float64(n)
			o.variance = max(float64(s2)/float64(n)-o.mean*o.mean, 0)
		}
	})
	const l = 20 * math.Ln2
	kf := float64(k)
	return int(kf*o.mean+math.Sqrt(2*kf*o.variance*l)+float64(o.max)*l/3) + 1
}
