package wva

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
)

// rawVocab writes a format-3 VOCAB section from its fields as given, so
// that tests can break any of them.
func rawVocab(n, reserved uint32, off, sorted []uint32, text string) []byte {
	b := make([]byte, vocabFixedLen)
	binary.LittleEndian.PutUint32(b[0:], n)
	binary.LittleEndian.PutUint32(b[4:], reserved)
	b = appendU32s(b, off)
	b = appendU32s(b, sorted)
	return append(b, text...)
}

// vocabFile returns a file of n words (codes only) whose VOCAB section is
// sec.
func vocabFile(t testing.TB, n int, sec []byte) []byte {
	h := Header{CodeBits: hamming.Bits, Words: n}
	return buildFile(mustJSON(t, h), []testSection{
		{kind: kindVocab, stored: sec},
		{kind: kindCodes, stored: make([]byte, n*hamming.CodeSize)},
	})
}

// TestVocabCorruption builds checksum-valid format-3 files whose VOCAB
// section breaks one rule: Decode must refuse each with ErrCorrupt naming
// the problem, never panicking, in place or not. The base vocabulary is
// the(0) cat(1) sat(2) mat(3): off 0,3,6,9,12, sorted cat mat sat the.
func TestVocabCorruption(t *testing.T) {
	const text = "thecatsatmat"
	off := func() []uint32 { return []uint32{0, 3, 6, 9, 12} }
	sorted := func() []uint32 { return []uint32{1, 3, 2, 0} }
	long := strings.Repeat("a", maxWordLen+1)
	for _, tc := range []struct {
		name string
		n    int // header words; 0 means 4
		sec  []byte
		msg  string // "" for a valid file
	}{
		{"hand-written baseline", 0, rawVocab(4, 0, off(), sorted(), text), ""},
		{"written baseline", 0, encodeVocab(vocabOf("the", "cat", "sat", "mat")), ""},
		{"longest word", 0, encodeVocab(vocabOf("the", "cat", long[1:], "mat")), ""},
		{"non-ASCII, valid", 0, encodeVocab(vocabOf("thé", "日本", "ß", "a")), ""},
		{"empty vocabulary", -1, rawVocab(0, 0, []uint32{0}, nil, ""), ""},
		{"first offset not 0", 0, rawVocab(4, 0, []uint32{1, 3, 6, 9, 12}, sorted(), text), "first offset is 1"},
		{"first offset 2^32-1", 0, rawVocab(4, 0, []uint32{1<<32 - 1, 3, 6, 9, 12}, sorted(), text), "first offset"},
		{"empty word", 0, rawVocab(4, 0, []uint32{0, 3, 3, 9, 12}, sorted(), text), "want 1..1024 bytes"},
		{"offsets decrease", 0, rawVocab(4, 0, []uint32{0, 6, 3, 9, 12}, sorted(), text), "want 1..1024 bytes"},
		{"offset wraps", 0, rawVocab(4, 0, []uint32{0, 3, 6, 1<<32 - 1, 12}, sorted(), text), "want 1..1024 bytes"},
		{"word longer than MaxWordLen", 0, encodeVocab(vocabOf("the", "cat", long, "mat")), "want 1..1024 bytes"},
		{"offsets end before the text", 0, rawVocab(4, 0, []uint32{0, 3, 6, 9, 11}, sorted(), text), "offsets end at 11, 12 bytes"},
		{"offsets end after the text", 0, rawVocab(4, 0, []uint32{0, 3, 6, 9, 13}, sorted(), text), "offsets end at 13, 12 bytes"},
		{"text longer than the words", 0, append(rawVocab(4, 0, off(), sorted(), text), 'x'), "offsets end at 12, 13 bytes"},
		{"word starts inside a UTF-8 character", 0, encodeVocab(vocabOf("the", "ca\xc3", "\xa9t", "mat")), "does not start at a UTF-8 character"},
		{"invalid UTF-8", 0, encodeVocab(vocabOf("the", "c\xffa", "sat", "mat")), "not valid UTF-8"},
		{"truncated UTF-8 at the end", 0, encodeVocab(vocabOf("the", "cat", "sat", "ma\xc3")), "not valid UTF-8"},
		{"surrogate half", 0, encodeVocab(vocabOf("the", "cat", "\xed\xa0\x80", "mat")), "not valid UTF-8"},
		{"sorted id = N", 0, rawVocab(4, 0, off(), []uint32{1, 3, 2, 4}, text), "sorted entry 3 is id 4"},
		{"sorted id 2^32-1", 0, rawVocab(4, 0, off(), []uint32{1<<32 - 1, 3, 2, 0}, text), "sorted entry 0 is id 4294967295"},
		{"sorted not ascending", 0, rawVocab(4, 0, off(), []uint32{3, 1, 2, 0}, text), "does not follow"},
		{"sorted repeats an id", 0, rawVocab(4, 0, off(), []uint32{1, 3, 3, 0}, text), "at ids 3 and 3"},
		{"sorted identity", 0, rawVocab(4, 0, off(), []uint32{0, 1, 2, 3}, text), "does not follow"},
		{"duplicate word", 0, encodeVocab(vocabOf("the", "cat", "the", "mat")), `word "the" at ids 0 and 2`},
		{"reserved not zero", 0, rawVocab(4, 1, off(), sorted(), text), "reserved"},
		{"reserved high bit", 0, rawVocab(4, 1<<31, off(), sorted(), text), "reserved"},
		{"section N above the header's", 0, rawVocab(5, 0, off(), sorted(), text), "5 words, header says 4"},
		{"section N below the header's", 0, rawVocab(3, 0, off(), sorted(), text), "3 words, header says 4"},
		{"section N 2^32-1", 0, rawVocab(1<<32-1, 0, off(), sorted(), text), "header says 4"},
		{"section too short for N", 1000, rawVocab(4, 0, off(), sorted(), text), "cannot hold 1000 words"},
		{"no arrays", 0, rawVocab(4, 0, nil, nil, ""), "cannot hold 4 words"},
		{"shorter than the fixed part", 0, make([]byte, vocabFixedLen+3), "cannot hold"},
		{"empty section", 0, nil, "cannot hold"},
		{"text for no words", -1, rawVocab(0, 0, []uint32{0}, nil, "x"), "header counts allow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.n
			switch n {
			case 0:
				n = 4
			case -1:
				n = 0
			}
			b := vocabFile(t, n, tc.sec)
			for _, inPlace := range []bool{false, true} {
				a, err := DecodeWith(b, DecodeOptions{InPlace: inPlace})
				if tc.msg == "" {
					if err != nil {
						t.Fatalf("in place %v: %v", inPlace, err)
					}
					if a.Len() != n {
						t.Fatalf("%d words, want %d", a.Len(), n)
					}
					for id, w := range a.WordList() {
						if got, ok := a.Lookup(w); !ok || got != id {
							t.Fatalf("Lookup(%q) = %d, %v; want %d", w, got, ok, id)
						}
					}
					continue
				}
				if !errors.Is(err, ErrCorrupt) || strings.Contains(err.Error(), internalPanic) {
					t.Fatalf("in place %v: err = %v, want ErrCorrupt without a panic", inPlace, err)
				}
				if !strings.Contains(err.Error(), "section VOCAB") || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("in place %v: err = %v, want it to name VOCAB and %q", inPlace, err, tc.msg)
				}
				if !inPlace {
					t.Log(err)
				}
			}
		})
	}
}

// TestVocabShortSectionAllocates: a VOCAB section far too short for the
// word count it must hold is refused before anything is sized by the
// count (the header's count is bounded by the CODES section, but the
// decoder must not trust even that): decoding 2^25 words from 12 bytes
// allocates almost nothing. Without the size check it would slice past
// the section (a panic) or, copying, allocate 4·2^25 bytes.
func TestVocabShortSectionAllocates(t *testing.T) {
	for _, raw := range [][]byte{
		rawVocab(maxWords, 0, []uint32{0}, nil, ""),
		rawVocab(maxWords, 0, []uint32{0, 1}, []uint32{0}, "a"),
		make([]byte, 9*1000), // 1000 words need 9 bytes each and 12 more
	} {
		for _, n := range []int{maxWords, 1 << 20, 1000} {
			var err error
			got := allocated(func() { _, err = decodeVocab(raw, n, false, false) })
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "cannot hold") {
				t.Fatalf("%d bytes, %d words: %v, want ErrCorrupt (cannot hold)", len(raw), n, err)
			}
			if got > 4<<10 {
				t.Fatalf("%d bytes, %d words: refusing allocated %d bytes", len(raw), n, got)
			}
		}
	}
	// The control: a section just large enough for its count is read.
	v := vocabOf("a", "b")
	if _, err := decodeVocab(encodeVocab(v), 2, false, false); err != nil {
		t.Fatalf("control: %v", err)
	}
}

// TestLookupTable: Lookup finds every word with its id and nothing else:
// not a prefix or extension of a word, not another case or form, not the
// empty string, not a word longer than MaxWordLen; on a vocabulary built
// in memory, decoded in place and decoded by copy, and on an empty one.
func TestLookupTable(t *testing.T) {
	words := []string{"the", "of", "and", "naïve", "日本", "a", "ab", "abc", "b", "\u00e9", "zz", strings.Repeat("x", MaxWordLen)}
	built := &Asset{Codes: make([]hamming.Code, len(words))}
	built.SetWords(words)
	file := mustMarshal(t, built)
	copied, err := Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	inPlace, err := DecodeWith(aligned8Copy(file), DecodeOptions{InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	absent := []string{
		"", "The", "thee", "th", "t", "naive", "nai", "naïv", "naïves", "日", "日本語", "aa", "abcd", "ac", "b\x00", "\x00",
		"e\u0301", // é decomposed: matching is byte-exact
		"zzz", "{", "\xff", strings.Repeat("x", MaxWordLen-1), strings.Repeat("x", MaxWordLen+1),
	}
	for name, a := range map[string]*Asset{"built": built, "decoded": copied, "decoded in place": inPlace} {
		if a.Len() != len(words) {
			t.Fatalf("%s: Len = %d", name, a.Len())
		}
		for id, w := range words {
			if got, ok := a.Lookup(w); !ok || got != id {
				t.Errorf("%s: Lookup(%q) = %d, %v; want %d", name, w, got, ok, id)
			}
			if a.Word(id) != w {
				t.Errorf("%s: Word(%d) = %q, want %q", name, id, a.Word(id), w)
			}
		}
		for _, w := range absent {
			if id, ok := a.Lookup(w); ok {
				t.Errorf("%s: Lookup(%q) found id %d", name, w, id)
			}
		}
	}
	var empty Asset
	if id, ok := empty.Lookup(""); ok || id != 0 || empty.Len() != 0 || len(empty.WordList()) != 0 {
		t.Errorf("empty asset: Lookup = %d, %v; Len %d", id, ok, empty.Len())
	}
	// A vocabulary with a word twice (refused by Validate and Decode)
	// still answers with one of its ids.
	dup := &Asset{}
	dup.SetWords([]string{"a", "b", "a"})
	if id, ok := dup.Lookup("a"); !ok || (id != 0 && id != 2) {
		t.Errorf("duplicate Lookup = %d, %v; want 0 or 2", id, ok)
	}
	if err := dup.Validate(); !errors.Is(err, ErrInvalid) {
		t.Errorf("Validate of a duplicate: %v", err)
	}
}

// aligned8Copy returns a copy of b at an 8-aligned address.
func aligned8Copy(b []byte) []byte {
	c := aligned8(len(b))
	copy(c, b)
	return c
}

// TestLookupProperty checks Lookup against a map on random vocabularies
// (ASCII and non-ASCII, 0 to 3,000 words): every word, every word's
// prefixes and one-byte extensions, and random strings, through a table
// built in memory and one decoded in place.
func TestLookupProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 61))
	alphabets := [][]string{
		{"a", "b", "c"},
		{"a", "b", "é", "ü", "日", "本", "ß", "—", "\x00", "\x7f"},
		syllables,
	}
	for trial := range 30 {
		n := []int{0, 1, 2, 3, 17, 100, 3000}[trial%7]
		alpha := alphabets[trial%len(alphabets)]
		seen := map[string]int{}
		words := make([]string, 0, n)
		for len(words) < n {
			var sb strings.Builder
			for range 1 + r.IntN(9) { // 3^9 words of 3 letters: room for 3,000
				sb.WriteString(alpha[r.IntN(len(alpha))])
			}
			w := sb.String()
			if _, dup := seen[w]; dup {
				continue
			}
			seen[w] = len(words)
			words = append(words, w)
		}
		a := &Asset{Codes: make([]hamming.Code, n)}
		a.SetWords(words)
		dec, err := DecodeWith(aligned8Copy(mustMarshal(t, a)), DecodeOptions{InPlace: true})
		if err != nil {
			t.Fatal(err)
		}
		probes := []string{""}
		for _, w := range words {
			probes = append(probes, w, w+"a", w+"\x00", w+"é")
			for i := 1; i < len(w); i++ {
				probes = append(probes, w[:i])
			}
		}
		for range 500 {
			var sb strings.Builder
			for range r.IntN(5) {
				sb.WriteString(alpha[r.IntN(len(alpha))])
			}
			probes = append(probes, sb.String())
		}
		misses := 0
		for _, p := range probes {
			want, wok := seen[p]
			for _, v := range []*Asset{a, dec} {
				if id, ok := v.Lookup(p); ok != wok || (ok && id != want) {
					t.Fatalf("trial %d (n=%d): Lookup(%q) = %d, %v; map has %d, %v", trial, n, p, id, ok, want, wok)
				}
			}
			if !wok {
				misses++
			}
		}
		// The probes must include absent strings, or a Lookup that always
		// hit would pass.
		if misses == 0 {
			t.Fatalf("trial %d: no absent probe", trial)
		}
	}
}

// TestLookupNoAlloc: a lookup, hit or miss, allocates nothing, also for a
// key converted from a stack buffer as the text privatizer forms it: that
// conversion is free only if Lookup lets the key escape nowhere (it did
// with strings.Compare in the search, costing a copy per lookup).
func TestLookupNoAlloc(t *testing.T) {
	a := &Asset{}
	a.SetWords(genWords(rand.New(rand.NewPCG(3, 4)), 5000, true))
	hit, miss := a.Word(1234), a.Word(1234)+"~"
	allocs := testing.AllocsPerRun(200, func() {
		if _, ok := a.Lookup(hit); !ok {
			t.Fatal("miss")
		}
		if _, ok := a.Lookup(miss); ok {
			t.Fatal("hit")
		}
		var buf [32]byte
		if _, ok := a.Lookup(string(append(buf[:0], hit...))); !ok {
			t.Fatal("miss from a buffer")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per lookup", allocs)
	}
}
