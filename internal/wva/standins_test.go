package wva

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// genStandIns returns m distinct words absent from vocab, each mapped to a
// random id below len(vocab), in random order. They are capitalized
// syllable strings (stand-ins are mostly names and places); genWords'
// vocabularies are lower case, so the two never meet.
func genStandIns(r *rand.Rand, vocab []string, m int) ([]string, []int32) {
	inVocab := make(map[string]bool, len(vocab))
	for _, w := range vocab {
		inVocab[w] = true
	}
	seen := make(map[string]bool, m)
	words := make([]string, 0, m)
	ids := make([]int32, 0, m)
	for len(words) < m {
		var w []byte
		for j := range 1 + r.IntN(4) {
			s := syllables[r.IntN(len(syllables))]
			if j == 0 {
				s = strings.ToUpper(s[:1]) + s[1:]
			}
			w = append(w, s...)
		}
		if r.IntN(8) == 0 {
			w = append(w, exotic[r.IntN(len(exotic))]...)
		}
		if seen[string(w)] || inVocab[string(w)] {
			// Syllables hold no '-', so "-" and a unique number make a
			// unique word.
			w = strconv.AppendInt(append(w, '-'), int64(len(words)), 10)
		}
		seen[string(w)] = true
		words = append(words, string(w))
		ids = append(ids, int32(r.IntN(max(len(vocab), 1))))
	}
	return words, ids
}

func mustStandIns(tb testing.TB, n int, words []string, ids []int32) *StandIns {
	tb.Helper()
	s, err := NewStandIns(n, words, ids)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// oracle is the map a StandIns must agree with.
func oracle(words []string, ids []int32) map[string]int {
	m := make(map[string]int, len(words))
	for i, w := range words {
		m[w] = int(ids[i])
	}
	return m
}

// checkAgainst checks s against the map: Len, strictly ascending At order,
// At and Lookup of every entry.
func checkAgainst(t *testing.T, s *StandIns, want map[string]int) {
	t.Helper()
	if s.Len() != len(want) {
		t.Fatalf("Len = %d, want %d", s.Len(), len(want))
	}
	prev := ""
	for i := range s.Len() {
		w, id := s.At(i)
		if i > 0 && w <= prev {
			t.Fatalf("At(%d) = %q after %q: not strictly ascending", i, w, prev)
		}
		prev = w
		if wid, ok := want[w]; !ok || wid != id {
			t.Fatalf("At(%d) = %q → %d; oracle has %d, %v", i, w, id, wid, ok)
		}
		if got, ok := s.Lookup(w); !ok || got != id {
			t.Fatalf("Lookup(%q) = %d, %v; want %d", w, got, ok, id)
		}
	}
}

// withStandIns returns an asset of n words (and, if full, every other
// section) with m stand-ins.
func withStandIns(t testing.TB, r *rand.Rand, n, m int, full bool) *Asset {
	var a *Asset
	if full {
		a = genAsset(t, r, genOpts{n: n, lists: 2, tem: true, neighbors: 4, dim: 2, utf8: true})
		a.CusText = mustSets(t, n, 3, shuffledGroups(r, n, 3))
		a.Header.CusText = &CusTextInfo{Metric: "hamming"}
	} else {
		a = wordsAsset(genWords(r, n, true))
	}
	words, ids := genStandIns(r, a.WordList(), m)
	a.StandIns = mustStandIns(t, n, words, ids)
	return a
}

func TestStandInsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	for _, tc := range []struct {
		name string
		n, m int
		full bool
	}{
		{"one word, zero-bit ids", 1, 3, false},
		{"one stand-in", 5, 1, false},
		{"one full block", 40, 16, false},
		{"block plus one", 40, 17, true},
		{"every section", 300, 1000, true},
		{"17-bit ids", 70000, 5000, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.n > 10000 {
				t.Skip("large")
			}
			a := withStandIns(t, r, tc.n, tc.m, tc.full)
			b := mustMarshal(t, a)
			got, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			checkEqual(t, a, got)
			want := make(map[string]int, tc.m)
			for i := range a.StandIns.Len() {
				w, id := a.StandIns.At(i)
				want[w] = id
			}
			checkAgainst(t, got.StandIns, want)
			if got.Header.StandIns == nil || got.Header.StandIns.Words != tc.m {
				t.Fatalf("header standIns = %+v, want %d words", got.Header.StandIns, tc.m)
			}
			for w, id := range want {
				if gid, ok := got.StandIn(w); !ok || gid != id {
					t.Fatalf("Asset.StandIn(%q) = %d, %v; want %d", w, gid, ok, id)
				}
				if _, ok := got.Lookup(w); ok {
					t.Fatalf("stand-in %q is also in the vocabulary", w)
				}
			}
			if again := mustMarshal(t, got); !bytes.Equal(again, b) {
				t.Fatal("re-encoding the decoded asset changed the bytes")
			}
			in, err := Inspect(b)
			if err != nil {
				t.Fatal(err)
			}
			st, ok := in.section(kindStandIns)
			if !ok {
				t.Fatal("no STANDINS section")
			}
			if st.Flags != 0 {
				t.Fatalf("STANDINS of %d entries stored compressed: format 3 reads it in place", tc.m)
			}
			if !bytes.Equal(b[st.Offset:st.Offset+st.Stored], encodeStandIns(a.StandIns)) {
				t.Fatal("STANDINS is not stored as encodeStandIns writes it")
			}
			t.Logf("%d stand-ins: section raw %d bytes, stored %d", tc.m, st.Raw, st.Stored)
		})
	}
}

// TestStandInsOldReader: a reader that predates STANDINS sees an unknown
// kind and an unknown header field, both of which it skips. Simulated with
// kind 40, which this reader does not know either, carrying the STANDINS
// bytes compressed.
func TestStandInsOldReader(t *testing.T) {
	a := withStandIns(t, rand.New(rand.NewPCG(4, 4)), 30, 200, false)
	h, secs := fileParts(t, a)
	h.StandIns = nil
	raw := encodeStandIns(a.StandIns)
	z := compress(raw)
	if z == nil {
		t.Fatal("stand-ins did not compress")
	}
	secs = append(secs, testSection{kind: 40, flags: flagDeflate, stored: z, raw: uint64(len(raw))})
	got, err := Decode(buildFile(mustJSON(t, h), secs))
	if err != nil || got.StandIns != nil {
		t.Fatalf("unknown kind: %v", err)
	}
}

func TestNewStandIns(t *testing.T) {
	long := strings.Repeat("é", 128) // 256 bytes
	for _, tc := range []struct {
		name  string
		n     int
		words []string
		ids   []int32
	}{
		{"empty word", 3, []string{"Ada", ""}, []int32{0, 1}},
		{"256 bytes", 3, []string{long}, []int32{0}},
		{"invalid UTF-8", 3, []string{"Ad\xffa"}, []int32{0}},
		{"truncated UTF-8", 3, []string{"caf\xc3"}, []int32{0}},
		{"duplicate", 3, []string{"Ada", "Bo", "Ada"}, []int32{0, 1, 2}},
		{"id = n", 3, []string{"Ada"}, []int32{3}},
		{"negative id", 3, []string{"Ada"}, []int32{-1}},
		{"more ids than words", 3, []string{"Ada"}, []int32{0, 1}},
		{"more words than ids", 3, []string{"Ada", "Bo"}, []int32{0}},
		{"n = 0", 0, []string{"Ada"}, []int32{0}},
		{"n = 0, no words", 0, nil, nil},
		{"negative n", -1, nil, nil},
		{"n above maxWords", maxWords + 1, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewStandIns(tc.n, tc.words, tc.ids)
			if !errors.Is(err, ErrInvalid) || s != nil {
				t.Fatalf("NewStandIns = %v, %v; want ErrInvalid", s, err)
			}
			if strings.Count(err.Error(), "wva:") != 1 {
				t.Fatalf("error %q repeats its prefix", err)
			}
			t.Log(err)
		})
	}
	// The largest word and largest id are accepted (controls for the
	// refusals above).
	s := mustStandIns(t, 3, []string{long[:MaxStandInLen-1] + "x", "Ada"}, []int32{2, 0})
	if id, ok := s.Lookup(long[:MaxStandInLen-1] + "x"); !ok || id != 2 {
		t.Fatalf("255-byte word: %d, %v", id, ok)
	}
	// Unsorted input comes out in byte order, each word with its own id,
	// and the inputs are not retained.
	words := []string{"Zoë", "Alice", "Paris", "Bob", "Álvaro", "London"}
	ids := []int32{5, 0, 3, 1, 4, 2}
	s = mustStandIns(t, 6, words, ids)
	want := []string{"Alice", "Bob", "London", "Paris", "Zoë", "Álvaro"}
	wantIDs := []int{0, 1, 2, 3, 5, 4}
	words[0], ids[0] = "Mutated", 0
	for i := range want {
		if w, id := s.At(i); w != want[i] || id != wantIDs[i] {
			t.Errorf("At(%d) = %q → %d, want %q → %d", i, w, id, want[i], wantIDs[i])
		}
	}
	if id, ok := s.Lookup("Zoë"); !ok || id != 5 {
		t.Errorf("Lookup(Zoë) after mutating the input = %d, %v", id, ok)
	}
	// An empty set is valid.
	if s := mustStandIns(t, 1, nil, nil); s.Len() != 0 {
		t.Fatalf("empty set has %d entries", s.Len())
	}
}

func TestStandInsAtPanics(t *testing.T) {
	s := mustStandIns(t, 2, []string{"Ada", "Bo"}, []int32{0, 1})
	for _, tc := range []struct {
		name string
		s    *StandIns
		i    int
	}{
		{"negative", s, -1}, {"at Len", s, 2}, {"nil receiver", nil, 0}, {"zero value", &StandIns{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			tc.s.At(tc.i)
		})
	}
}

// TestValidateStandIns checks that Validate and Marshal refuse stand-ins
// that Decode would refuse.
func TestValidateStandIns(t *testing.T) {
	base := func() *Asset {
		a := tinyAsset(t) // the cat sat mat
		a.StandIns = mustStandIns(t, 4, []string{"Alice", "kitten"}, []int32{0, 1})
		return a
	}
	if err := base().Validate(); err != nil {
		t.Fatalf("valid asset: %v", err)
	}
	a := base()
	a.Header.StandIns = &StandInsInfo{Words: 2} // derived field set right
	if err := a.Validate(); err != nil {
		t.Fatalf("consistent derived field: %v", err)
	}
	for _, tc := range []struct {
		name   string
		mutate func(a *Asset)
	}{
		{"stand-in is a vocabulary word", func(a *Asset) {
			a.StandIns = mustStandIns(t, 4, []string{"Alice", "cat"}, []int32{0, 1})
		}},
		{"built for a smaller vocabulary", func(a *Asset) {
			a.StandIns = mustStandIns(t, 3, []string{"Alice"}, []int32{0})
		}},
		{"built for a larger vocabulary", func(a *Asset) {
			a.StandIns = mustStandIns(t, 5, []string{"Alice"}, []int32{0})
		}},
		{"header count", func(a *Asset) { a.Header.StandIns = &StandInsInfo{Words: 3} }},
		{"header describes absent stand-ins", func(a *Asset) {
			a.StandIns, a.Header.StandIns = nil, &StandInsInfo{Words: 2}
		}},
		{"header describes an empty set", func(a *Asset) {
			a.StandIns, a.Header.StandIns = mustStandIns(t, 4, nil, nil), &StandInsInfo{Words: 1}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := base()
			tc.mutate(a)
			err := a.Validate()
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate = %v, want ErrInvalid", err)
			}
			if _, err := Marshal(a); !errors.Is(err, ErrInvalid) {
				t.Fatalf("Marshal = %v, want ErrInvalid", err)
			}
			t.Log(err)
		})
	}
}

// standinsSection writes a STANDINS section by hand, front-coding words
// in the given order (each entry shares with the one before it the bytes
// they have in common, none at a block's start).
func standinsSection(m, n uint32, idBits uint, words []string, ids []uint32) []byte {
	return rawStandins(m, n, idBits, frontCode(words), ids)
}

// frontCode returns words' front-coded entries, in the given order.
func frontCode(words []string) []entry {
	var entries []entry
	for i, w := range words {
		shared := 0
		if i%standInBlock != 0 {
			prev := words[i-1]
			for shared < len(w) && shared < len(prev) && w[shared] == prev[shared] {
				shared++
			}
		}
		entries = append(entries, entry{shared, w[shared:]})
	}
	return entries
}

// entry is one front-coded STANDINS entry, written as given.
type entry struct {
	shared int
	rest   string
}

// rawStandins writes a format-3 STANDINS section: the fixed part (T is
// the entries' length), the ids, the 8 bytes of slack, the entries.
func rawStandins(m, n uint32, idBits uint, entries []entry, ids []uint32) []byte {
	var text []byte
	for _, e := range entries {
		text = append(text, byte(e.shared), byte(len(e.rest)))
		text = append(text, e.rest...)
	}
	b := make([]byte, standinsV3FixedLen)
	binary.LittleEndian.PutUint32(b[0:], m)
	binary.LittleEndian.PutUint32(b[4:], n)
	b[8] = byte(idBits)
	binary.LittleEndian.PutUint32(b[12:], uint32(len(text)))
	b = bitpack.Pack(b, ids, idBits)
	b = append(b, make([]byte, bitpack.Slack)...)
	return append(b, text...)
}

// rawStandinsV2 writes a format-2 STANDINS section: the 12-byte fixed
// part, the entries, the ids.
func rawStandinsV2(m, n uint32, idBits uint, entries []entry, ids []uint32) []byte {
	b := make([]byte, standinsFixedLen)
	binary.LittleEndian.PutUint32(b[0:], m)
	binary.LittleEndian.PutUint32(b[4:], n)
	b[8] = byte(idBits)
	for _, e := range entries {
		b = append(b, byte(e.shared), byte(len(e.rest)))
		b = append(b, e.rest...)
	}
	return bitpack.Pack(b, ids, idBits)
}

// TestStandInsCorruption builds checksum-valid files whose STANDINS section
// or its header description breaks one rule. Decode must refuse each with
// ErrCorrupt naming the problem, without panicking, in place or not. The
// base asset has 5 words (3-bit ids, so ids 5..7 can be spelled and 4
// padding bits follow the 4 ids) and the stand-ins Alice→0 Bob→1 Paris→2
// kitten→4. Its format-3 section: 16 bytes of fixed part, the ids at
// 16..17, 8 bytes of slack at 18..25, the entries from 26.
func TestStandInsCorruption(t *testing.T) {
	base := func() *Asset {
		a := wordsAsset([]string{"the", "cat", "sat", "mat", "a"})
		a.Header = Header{Name: "stand-ins"}
		a.StandIns = mustStandIns(t, 5, []string{"kitten", "Paris", "Bob", "Alice"}, []int32{4, 2, 1, 0})
		return a
	}
	good := []string{"Alice", "Bob", "Paris", "kitten"}
	goodIDs := []uint32{0, 1, 2, 4}
	// Words long and alike enough for DEFLATE to shrink the section.
	long := []string{"Arepresentationally-representationally", "Brepresentationally-representationally",
		"Crepresentationally-representationally", "Drepresentationally-representationally"}
	hand := func(words []string, ids []uint32) []byte {
		return standinsSection(uint32(len(words)), 5, 3, words, ids)
	}
	for _, tc := range []struct {
		name string
		// mutate gets the header and the STANDINS section's bytes; it
		// returns the section, or nil for none.
		mutate  func(h *Header, sec []byte) []byte
		msg     string // "" for a valid file, else a substring of the error
		deflate bool   // store the section compressed
	}{
		{"valid baseline", func(h *Header, s []byte) []byte { return s }, "", false},
		{"hand-written baseline", func(h *Header, s []byte) []byte { return hand(good, goodIDs) }, "", false},
		{"compressed", func(h *Header, s []byte) []byte { return hand(long, goodIDs) }, "always stored raw in format 3", true},
		{"two stand-ins for one id", func(h *Header, s []byte) []byte {
			return hand([]string{"Alice", "Bob", "Paris", "kitten"}, []uint32{4, 4, 4, 4})
		}, "", false},
		{"unsorted", func(h *Header, s []byte) []byte {
			return hand([]string{"Alice", "Paris", "Bob", "kitten"}, goodIDs)
		}, "ascending byte order", false},
		{"duplicate", func(h *Header, s []byte) []byte {
			return hand([]string{"Alice", "Bob", "Bob", "kitten"}, goodIDs)
		}, "adds no byte", false},
		{"duplicate across blocks", func(h *Header, s []byte) []byte {
			words := make([]string, 17)
			for i := range words {
				words[i] = fmt.Sprintf("w%02d", i)
			}
			words[16] = words[15]
			h.StandIns.Words = 17
			return standinsSection(17, 5, 3, words, make([]uint32, 17))
		}, "ascending byte order", false},
		{"entry adds no byte", func(h *Header, s []byte) []byte {
			return rawStandins(4, 5, 3, []entry{{0, "Alice"}, {0, "Bob"}, {3, ""}, {0, "kitten"}}, goodIDs)
		}, "adds no byte", false},
		{"block start shares", func(h *Header, s []byte) []byte {
			return rawStandins(4, 5, 3, []entry{{1, "lice"}, {0, "Bob"}, {0, "Paris"}, {0, "kitten"}}, goodIDs)
		}, "starts a block but shares 1", false},
		{"shares more than the word before", func(h *Header, s []byte) []byte {
			return rawStandins(4, 5, 3, []entry{{0, "Al"}, {3, "b"}, {0, "Paris"}, {0, "kitten"}}, goodIDs)
		}, "shares 3 bytes with a 2-byte word", false},
		{"shared prefix not the longest", func(h *Header, s []byte) []byte {
			// "Bob" then "Boc" is {2, "c"}; {1, "oc"} spells the same
			// word with a second encoding.
			return rawStandins(4, 5, 3, []entry{{0, "Alice"}, {0, "Bob"}, {1, "oc"}, {0, "kitten"}}, goodIDs)
		}, "ascending byte order", false},
		{"front-coded, valid", func(h *Header, s []byte) []byte {
			return rawStandins(4, 5, 3, []entry{{0, "Alice"}, {0, "Bob"}, {2, "c"}, {0, "kitten"}}, goodIDs)
		}, "", false},
		{"longer than 255 bytes", func(h *Header, s []byte) []byte {
			return rawStandins(4, 5, 3, []entry{{0, strings.Repeat("a", 200)}, {200, strings.Repeat("b", 100)}, {0, "c"}, {0, "d"}}, goodIDs)
		}, "at most 255", false},
		{"section ends inside an entry", func(h *Header, s []byte) []byte {
			return rawStandins(4, 5, 3, []entry{{0, "Alice"}, {0, "Bob"}, {0, "Paris"}}, goodIDs)
		}, "ends inside the entry", false},
		{"last entry cut short", func(h *Header, s []byte) []byte {
			b := rawStandins(4, 5, 3, frontCode(good), goodIDs)
			binary.LittleEndian.PutUint32(b[12:], binary.LittleEndian.Uint32(b[12:])-1)
			return b[:len(b)-1]
		}, "ends inside the entry", false},
		{"entries end before the text", func(h *Header, s []byte) []byte {
			return rawStandins(4, 5, 3, append(frontCode(good), entry{0, "zebra"}), goodIDs)
		}, "7 bytes after 4 stand-ins' entries", false},
		{"invalid UTF-8", func(h *Header, s []byte) []byte {
			return hand([]string{"Alice", "Bo\xff", "Paris", "kitten"}, goodIDs)
		}, "UTF-8", false},
		{"UTF-8 split across words", func(h *Header, s []byte) []byte {
			return hand([]string{"Alice", "Bob\xc3", "\xa9t", "kitten"}, goodIDs)
		}, "UTF-8", false},
		{"truncated", func(h *Header, s []byte) []byte { return s[:len(s)-1] }, "need", false},
		{"short fixed header", func(h *Header, s []byte) []byte { return s[:standinsV3FixedLen-1] }, "shorter than", false},
		{"trailing byte", func(h *Header, s []byte) []byte { return append(s, 0) }, "need", false},
		{"T above the entries", func(h *Header, s []byte) []byte {
			binary.LittleEndian.PutUint32(s[12:], binary.LittleEndian.Uint32(s[12:])+1)
			return s
		}, "need", false},
		{"T below the entries", func(h *Header, s []byte) []byte {
			binary.LittleEndian.PutUint32(s[12:], binary.LittleEndian.Uint32(s[12:])-1)
			return s
		}, "need", false},
		{"T = 2^32-1", func(h *Header, s []byte) []byte {
			binary.LittleEndian.PutUint32(s[12:], 1<<32-1)
			return s
		}, "need", false},
		{"ids a byte short", func(h *Header, s []byte) []byte { return append(s[:17:17], s[18:]...) }, "need", false},
		{"ids without their slack", func(h *Header, s []byte) []byte { return append(s[:18:18], s[26:]...) }, "need", false},
		{"non-zero slack", func(h *Header, s []byte) []byte { s[25] = 1; return s }, "slack", false},
		{"non-zero first slack byte", func(h *Header, s []byte) []byte { s[18] = 0x80; return s }, "slack", false},
		{"id = N", func(h *Header, s []byte) []byte {
			return hand(good, []uint32{0, 1, 5, 4})
		}, "stands in for id 5", false},
		{"id 7", func(h *Header, s []byte) []byte {
			return hand(good, []uint32{0, 1, 2, 7})
		}, "stands in for id 7", false},
		{"non-zero padding bits", func(h *Header, s []byte) []byte { s[17] |= 0x80; return s }, "padding", false},
		{"non-zero padding bit, lowest", func(h *Header, s []byte) []byte { s[17] |= 0x10; return s }, "padding", false},
		{"non-zero reserved", func(h *Header, s []byte) []byte { s[10] = 1; return s }, "reserved", false},
		{"wrong N", func(h *Header, s []byte) []byte {
			return standinsSection(4, 6, 3, good, goodIDs)
		}, "vocabulary of 6 words", false},
		{"wrong id width", func(h *Header, s []byte) []byte {
			return standinsSection(4, 5, 4, good, goodIDs)
		}, "id width", false},
		{"M = 0", func(h *Header, s []byte) []byte {
			binary.LittleEndian.PutUint32(s, 0)
			return s
		}, "no stand-ins", false},
		{"M too big for the size", func(h *Header, s []byte) []byte {
			h.StandIns.Words = 1000
			binary.LittleEndian.PutUint32(s, 1000)
			return s
		}, "cannot hold", false},
		{"M above MaxStandIns", func(h *Header, s []byte) []byte {
			binary.LittleEndian.PutUint32(s, MaxStandIns+1)
			return s
		}, "at most", false},
		{"M = 2^32-1", func(h *Header, s []byte) []byte {
			binary.LittleEndian.PutUint32(s, 1<<32-1)
			return s
		}, "at most", false},
		// A stand-in that is also a vocabulary word is unreachable (the
		// vocabulary is looked up first): Validate refuses to write one
		// (TestValidateStandIns), the reader need not look.
		{"collision with the vocabulary", func(h *Header, s []byte) []byte {
			return hand([]string{"Alice", "Bob", "Paris", "cat"}, goodIDs)
		}, "", false},
		{"header count", func(h *Header, s []byte) []byte { h.StandIns.Words = 3; return s }, "header says 3", false},
		{"header count 0", func(h *Header, s []byte) []byte { h.StandIns.Words = 0; return s }, "standIns words 0", false},
		{"header count above MaxStandIns", func(h *Header, s []byte) []byte {
			h.StandIns.Words = MaxStandIns + 1
			return s
		}, "standIns words", false},
		{"header describes, section absent", func(h *Header, s []byte) []byte { return nil }, "STANDINS section present = false", false},
		{"section present, header silent", func(h *Header, s []byte) []byte { h.StandIns = nil; return s }, "STANDINS section present = true", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := base()
			h, secs := fileParts(t, a)
			sec := tc.mutate(&h, encodeStandIns(a.StandIns))
			if sec != nil {
				ts := testSection{kind: kindStandIns, stored: sec}
				if tc.deflate {
					ts = testSection{kind: kindStandIns, flags: flagDeflate, stored: deflateBytes(t, sec), raw: uint64(len(sec))}
				}
				secs = append(secs, ts)
			}
			b := buildFile(mustJSON(t, h), secs)
			checkStandInsCase(t, aligned8Copy(b), tc.msg)
		})
	}
}

// checkStandInsCase decodes b in place and by copy: it must hold the 4
// stand-ins when msg is "", else fail with ErrCorrupt naming msg.
func checkStandInsCase(t *testing.T, b []byte, msg string) {
	t.Helper()
	for _, inPlace := range []bool{false, true} {
		got, err := DecodeWith(b, DecodeOptions{InPlace: inPlace})
		if msg == "" {
			if err != nil {
				t.Fatalf("in place %v: %v", inPlace, err)
			}
			if got.StandIns.Len() != 4 {
				t.Fatalf("%d stand-ins", got.StandIns.Len())
			}
			continue
		}
		if !errors.Is(err, ErrCorrupt) || strings.Contains(err.Error(), internalPanic) {
			t.Fatalf("in place %v: err = %v, want ErrCorrupt without a panic", inPlace, err)
		}
		if !strings.Contains(err.Error(), msg) {
			t.Fatalf("in place %v: err = %v, want it to name %q", inPlace, err, msg)
		}
		if strings.Count(err.Error(), "wva:") != 1 {
			t.Fatalf("error %q repeats its prefix", err)
		}
		if !inPlace {
			t.Log(err)
		}
	}
}

// TestStandInsV2Corruption: the reader of format-2 STANDINS sections
// (entries first, ids after, no text length, no slack; normally
// compressed) refuses what breaks its layout, with the same base as
// TestStandInsCorruption; the rules its entries share with format 3 are
// tested there.
func TestStandInsV2Corruption(t *testing.T) {
	good := []string{"Alice", "Bob", "Paris", "kitten"}
	goodIDs := []uint32{0, 1, 2, 4}
	long := []string{"Arepresentationally-representationally", "Brepresentationally-representationally",
		"Crepresentationally-representationally", "Drepresentationally-representationally"}
	v2 := func(words []string, ids []uint32) []byte { return rawStandinsV2(4, 5, 3, frontCode(words), ids) }
	for _, tc := range []struct {
		name    string
		sec     []byte
		msg     string
		deflate bool
	}{
		{"baseline", v2(good, goodIDs), "", false},
		{"compressed", v2(long, goodIDs), "", true},
		{"compressed, id out of range", v2(long, []uint32{0, 1, 6, 4}), "stands in for id 6", true},
		{"id = N", v2(good, []uint32{0, 1, 5, 4}), "stands in for id 5", false},
		{"unsorted", v2([]string{"Alice", "Paris", "Bob", "kitten"}, goodIDs), "ascending byte order", false},
		{"ids truncated", v2(good, goodIDs)[:len(v2(good, goodIDs))-1], "need", false},
		{"trailing byte", append(v2(good, goodIDs), 0), "need", false},
		{"non-zero padding bits", func() []byte { b := v2(good, goodIDs); b[len(b)-1] |= 0x80; return b }(), "padding", false},
		{"section ends inside an entry", rawStandinsV2(4, 5, 3, frontCode(good[:3]), nil), "ends inside the entry", false},
		{"short fixed header", make([]byte, standinsFixedLen-1), "shorter than", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := wordsAsset([]string{"the", "cat", "sat", "mat", "a"})
			a.StandIns = mustStandIns(t, 5, good, []int32{0, 1, 2, 4})
			h, secs := v2Parts(t, a, false)
			st := &secs[len(secs)-1]
			st.stored = tc.sec
			if tc.deflate {
				st.stored, st.flags, st.raw = deflateBytes(t, tc.sec), flagDeflate, uint64(len(tc.sec))
			}
			checkStandInsCase(t, buildFileMajor(oldestMajor, 1, mustJSON(t, h), secs), tc.msg)
		})
	}
}

// TestStandInsLookup checks Lookup against a map on random sets: every
// word present, and absent words of every shape — before the first,
// after the last, prefixes and extensions of words (which sort inside
// their block), vocabulary-shaped words, random strings.
func TestStandInsLookup(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 21))
	vocab := genWords(r, 2000, true)
	for _, m := range []int{1, 2, 15, 16, 17, 33, 1000, 4099} {
		words, ids := genStandIns(r, vocab, m)
		want := oracle(words, ids)
		s := mustStandIns(t, len(vocab), words, ids)
		checkAgainst(t, s, want)
		first, _ := s.At(0)
		last, _ := s.At(s.Len() - 1)
		probes := []string{"", "\x00", "A", "a", first[:1], last + "\x00", last + "z", "\xff", "\xff\xff", strings.Repeat("Z", 256), strings.Repeat("z", 300)}
		for _, w := range words {
			_, size := firstRune(w)
			probes = append(probes, w[:len(w)-1], w+"a", w+"\x00", strings.ToLower(w), w[size:])
		}
		probes = append(probes, vocab[:200]...)
		for range 2000 {
			b := make([]byte, r.IntN(12))
			for i := range b {
				b[i] = byte(r.IntN(256))
			}
			probes = append(probes, string(b))
		}
		hits := 0
		for _, p := range probes {
			id, ok := s.Lookup(p)
			wid, wok := want[p]
			if ok != wok || id != wid {
				t.Fatalf("m=%d: Lookup(%q) = %d, %v; oracle %d, %v", m, p, id, ok, wid, wok)
			}
			if ok {
				hits++
			}
		}
		// The probes must exercise misses: a Lookup that always hit would
		// fail above, and one that always missed would fail checkAgainst.
		if hits == len(probes) {
			t.Fatalf("m=%d: no absent probe", m)
		}
	}
	for _, s := range []*StandIns{nil, {}, mustStandIns(t, 1, nil, nil)} {
		if id, ok := s.Lookup("anything"); ok || id != 0 || s.Len() != 0 {
			t.Fatalf("empty set: Lookup = %d, %v; Len = %d", id, ok, s.Len())
		}
	}
	var a Asset
	if id, ok := a.StandIn("x"); ok || id != 0 {
		t.Fatalf("asset without stand-ins: StandIn = %d, %v", id, ok)
	}
}

func firstRune(w string) (rune, int) {
	for _, c := range w {
		return c, len(string(c))
	}
	return 0, 0
}

func TestStandInsLookupNoAlloc(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 22))
	words, ids := genStandIns(r, []string{"the"}, 5000)
	s := mustStandIns(t, 1, words, ids)
	var a Asset
	a.StandIns = s
	hit, miss := words[1234], words[1234]+"x"
	allocs := testing.AllocsPerRun(200, func() {
		if _, ok := s.Lookup(hit); !ok {
			t.Fatal("miss")
		}
		if _, ok := a.StandIn(miss); ok {
			t.Fatal("hit")
		}
		var buf [32]byte // a key from a stack buffer, as the privatizer forms it
		if _, ok := a.StandIn(string(append(buf[:0], hit...))); !ok {
			t.Fatal("miss from a buffer")
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per lookup", allocs)
	}
}

// standInsHeapBound is the heap a decoded set should hold: its
// front-coded text (two length bytes per entry and the bytes it does not
// share), a u32 per block of 16, the packed ids; plus 10% and 64 KiB for
// size classes and the fixed parts.
func standInsHeapBound(frontCoded, m int, idBits uint) uint64 {
	formula := uint64(frontCoded) + 4*uint64(numBlocks(m)) + (uint64(m)*uint64(idBits)+7)/8
	return formula + formula/10 + 64<<10
}

// TestStandInsHeap measures the heap a decoded 100,000-entry set retains
// (bytes counted, not time) and checks it against standInsHeapBound. A
// map[string]int32 of the same words, measured the same way, is the
// negative control: it must exceed the bound.
func TestStandInsHeap(t *testing.T) {
	const n, m = 50000, 100000
	r := rand.New(rand.NewPCG(100, 100))
	words, ids := genStandIns(r, nil, m)
	for i := range ids {
		ids[i] = int32(r.IntN(n))
	}
	s := mustStandIns(t, n, words, ids)
	raw := encodeStandIns(s)
	textBytes := 0
	for _, w := range words {
		textBytes += len(w)
	}
	if len(s.text) >= textBytes+2*m {
		t.Fatalf("front-coded text %d bytes, plain %d + %d length bytes", len(s.text), textBytes, 2*m)
	}
	bound := standInsHeapBound(len(s.text), m, idWidth(n))
	decoder := func(raw []byte, decode func([]byte) (*StandIns, error)) func() any {
		return func() any {
			got, err := decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
	}
	info := &StandInsInfo{Words: m}
	heap := heapAfter(decoder(raw, func(b []byte) (*StandIns, error) { return decodeStandInsV3(b, n, info, false, false) }))
	rawV2 := encodeStandInsV2(s)
	heapV2 := heapAfter(decoder(rawV2, func(b []byte) (*StandIns, error) { return decodeStandIns(b, n, info) }))
	// In place only the block offsets are built.
	inPlaceBound := uint64(4*numBlocks(m)) + uint64(4*numBlocks(m))/10 + 64<<10
	rawAligned := aligned8Copy(raw)
	heapInPlace := heapAfter(decoder(rawAligned, func(b []byte) (*StandIns, error) { return decodeStandInsV3(b, n, info, true, false) }))
	control := heapAfter(func() any {
		mp := make(map[string]int32, m)
		// The keys are copies, as a decoder's would be.
		for i, w := range words {
			mp[strings.Clone(w)] = ids[i]
		}
		return mp
	})
	// Keep the inputs alive through both measurements, so that freeing
	// them does not offset what the loads retain.
	runtime.KeepAlive(raw)
	runtime.KeepAlive(rawV2)
	runtime.KeepAlive(rawAligned)
	runtime.KeepAlive(words)
	runtime.KeepAlive(ids)
	t.Logf("%d stand-ins, %d text bytes: decoded heap %d bytes (%.2f per entry), bound %d; map[string]int32 control %d bytes",
		m, textBytes, heap, float64(heap)/m, bound, control)
	t.Logf("format 2: %d bytes; format 3 in place: %d bytes, bound %d", heapV2, heapInPlace, inPlaceBound)
	if heap > bound || heapV2 > bound {
		t.Errorf("decoded stand-ins hold %d bytes of heap (format 2: %d), bound %d", heap, heapV2, bound)
	}
	if heapInPlace > inPlaceBound {
		t.Errorf("stand-ins decoded in place hold %d bytes of heap, bound %d", heapInPlace, inPlaceBound)
	}
	if control <= bound {
		t.Errorf("control: a map of the same words holds %d bytes, within the bound %d; the test cannot tell layouts apart", control, bound)
	}
}

// FuzzStandInsLookup: Lookup of any string never panics and agrees with a
// map built from At.
func FuzzStandInsLookup(f *testing.F) {
	r := rand.New(rand.NewPCG(31, 31))
	words, ids := genStandIns(r, []string{"the"}, 700)
	words = append(words, "Z", "Zz", "Zzz", "ZZZZ", strings.Repeat("é", 127))
	ids = append(ids, 0, 0, 0, 0, 0)
	s := mustStandIns(f, 1, words, ids)
	want := make(map[string]int, s.Len())
	for i := range s.Len() {
		w, id := s.At(i)
		want[w] = id
	}
	for _, w := range words[:20] {
		f.Add(w)
		f.Add(w[:len(w)-1])
		f.Add(w + "a")
	}
	f.Add("")
	f.Add("\xff")
	f.Fuzz(func(t *testing.T, w string) {
		id, ok := s.Lookup(w)
		wid, wok := want[w]
		if ok != wok || id != wid {
			t.Fatalf("Lookup(%q) = %d, %v; want %d, %v", w, id, ok, wid, wok)
		}
	})
}

// FuzzDecodeStandIns is FuzzDecode seeded with files carrying STANDINS,
// format 3 and format 2 (compressed).
func FuzzDecodeStandIns(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, c := range []struct {
		n, m int
		full bool
	}{{1, 1, false}, {5, 4, false}, {12, 40, true}, {30, 300, false}} {
		a := withStandIns(f, r, c.n, c.m, c.full)
		addSeedAndFlips(f, mustMarshal(f, a), 1, 5, 20)
		addSeedAndFlips(f, v2File(f, a, true), 1, 5, 20)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, b)
		c := bytes.Clone(b)
		reseal(c)
		checkDecode(t, c)
	})
}
