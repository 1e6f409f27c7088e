package wva

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
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
		a = &Asset{Words: genWords(r, n, true), Codes: make([]hamming.Code, n)}
	}
	words, ids := genStandIns(r, a.Words, m)
	a.StandIns = mustStandIns(t, n, words, ids)
	return a
}

func TestStandInsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	for _, tc := range []struct {
		name     string
		n, m     int
		full     bool
		compress bool // the section must come out compressed
	}{
		{"one word, zero-bit ids", 1, 3, false, false},
		{"one stand-in", 5, 1, false, false},
		{"one full block", 40, 16, false, false},
		{"block plus one", 40, 17, true, false},
		{"every section", 300, 1000, true, true},
		{"17-bit ids", 70000, 5000, false, true},
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
			if tc.compress && st.Flags != flagDeflate {
				t.Fatalf("STANDINS of %d entries stored raw (%d bytes)", tc.m, st.Raw)
			}
			t.Logf("%d stand-ins: section raw %d bytes, stored %d", tc.m, st.Raw, st.Stored)
		})
	}
}

// TestStandInsFormatCompatibility pins what 2.1 changed for files without
// stand-ins: nothing (the writer records the lowest minor version that
// has the file's sections), and for files with them: one more section.
// testdata/v2.0-tiny.wva was written by the 2.0 writer from the asset
// rebuilt here.
func TestStandInsFormatCompatibility(t *testing.T) {
	old, err := os.ReadFile("testdata/v2.0-tiny.wva")
	if err != nil {
		t.Fatal(err)
	}
	a := tinyAsset(t)
	a.CusText = mustSets(t, 4, 2, [][]uint32{{0, 1}, {2, 3}})
	a.Header.CusText = &CusTextInfo{Metric: "hamming"}
	a.Header.Description = "format 2.0 file written before STANDINS existed"

	// A 2.1 reader reads the 2.0 file.
	got, err := Decode(old)
	if err != nil {
		t.Fatalf("2.0 file: %v", err)
	}
	if got.StandIns != nil || got.Header.StandIns != nil {
		t.Fatal("2.0 file decoded with stand-ins")
	}
	checkEqual(t, a, got)

	// Without stand-ins the 2.1 writer writes the 2.0 file, byte for byte.
	plain := mustMarshal(t, a)
	if !bytes.Equal(plain, old) {
		t.Fatal("an asset without stand-ins is not written as the 2.0 file")
	}
	in, err := Inspect(plain)
	if err != nil {
		t.Fatal(err)
	}

	// Adding stand-ins appends a section and a header field; every other
	// section keeps its bytes.
	a.StandIns = mustStandIns(t, 4, []string{"Paris", "Alice", "kitten"}, []int32{2, 0, 1})
	with := mustMarshal(t, a)
	if !bytes.Contains(with, []byte(`"standIns":{"words":3}`)) {
		t.Fatal("header lacks the standIns description")
	}
	win, err := Inspect(with)
	if err != nil {
		t.Fatal(err)
	}
	if win.Minor != 1 || in.Minor != 0 {
		t.Fatalf("minor versions: %d with stand-ins, %d without; want 1 and 0", win.Minor, in.Minor)
	}
	if len(win.Sections) != len(in.Sections)+1 || win.Sections[len(in.Sections)].Kind != kindStandIns {
		t.Fatalf("sections with stand-ins: %v", win.Sections)
	}
	for i, s := range in.Sections {
		w := win.Sections[i]
		if w.Kind != s.Kind || !bytes.Equal(with[w.Offset:w.Offset+w.Stored], plain[s.Offset:s.Offset+s.Stored]) {
			t.Fatalf("section %s changed when stand-ins were added", s.Kind)
		}
	}
	// An empty set is no section: the file is the one without stand-ins.
	a.StandIns = mustStandIns(t, 4, nil, nil)
	if empty := mustMarshal(t, a); !bytes.Equal(empty, plain) {
		t.Fatal("an empty stand-in set changed the file")
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
	return rawStandins(m, n, idBits, entries, ids)
}

// entry is one front-coded STANDINS entry, written as given.
type entry struct {
	shared int
	rest   string
}

func rawStandins(m, n uint32, idBits uint, entries []entry, ids []uint32) []byte {
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
// ErrCorrupt naming the problem, without panicking. The base asset has 5
// words (3-bit ids, so ids 5..7 can be spelled and 4 padding bits follow
// the 4 ids) and the stand-ins Alice→0 Bob→1 Paris→2 kitten→4.
func TestStandInsCorruption(t *testing.T) {
	base := func() *Asset {
		return &Asset{
			Header:   Header{Name: "stand-ins"},
			Words:    []string{"the", "cat", "sat", "mat", "a"},
			Codes:    make([]hamming.Code, 5),
			StandIns: mustStandIns(t, 5, []string{"kitten", "Paris", "Bob", "Alice"}, []int32{4, 2, 1, 0}),
		}
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
		{"compressed", func(h *Header, s []byte) []byte { return hand(long, goodIDs) }, "", true},
		{"compressed, id out of range", func(h *Header, s []byte) []byte {
			return hand(long, []uint32{0, 1, 6, 4})
		}, "stands in for id 6", true},
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
			return rawStandins(4, 5, 3, []entry{{0, "Alice"}, {0, "Bob"}, {0, "Paris"}}, nil)
		}, "ends inside the entry", false},
		{"invalid UTF-8", func(h *Header, s []byte) []byte {
			return hand([]string{"Alice", "Bo\xff", "Paris", "kitten"}, goodIDs)
		}, "UTF-8", false},
		{"UTF-8 split across words", func(h *Header, s []byte) []byte {
			return hand([]string{"Alice", "Bob\xc3", "\xa9t", "kitten"}, goodIDs)
		}, "UTF-8", false},
		{"truncated", func(h *Header, s []byte) []byte { return s[:len(s)-1] }, "need", false},
		{"short fixed header", func(h *Header, s []byte) []byte { return s[:standinsFixedLen-1] }, "shorter than", false},
		{"trailing byte", func(h *Header, s []byte) []byte { return append(s, 0) }, "need", false},
		{"id = N", func(h *Header, s []byte) []byte {
			return hand(good, []uint32{0, 1, 5, 4})
		}, "stands in for id 5", false},
		{"id 7", func(h *Header, s []byte) []byte {
			return hand(good, []uint32{0, 1, 2, 7})
		}, "stands in for id 7", false},
		{"non-zero padding bits", func(h *Header, s []byte) []byte { s[len(s)-1] |= 0x80; return s }, "padding", false},
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
			got, err := Decode(buildFile(mustJSON(t, h), secs))
			if tc.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got.StandIns.Len() != 4 {
					t.Fatalf("%d stand-ins", got.StandIns.Len())
				}
				return
			}
			if !errors.Is(err, ErrCorrupt) || strings.Contains(err.Error(), internalPanic) {
				t.Fatalf("err = %v, want ErrCorrupt without a panic", err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want it to name %q", err, tc.msg)
			}
			if strings.Count(err.Error(), "wva:") != 1 {
				t.Fatalf("error %q repeats its prefix", err)
			}
			t.Log(err)
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
	heap := heapAfter(func() any {
		got, err := decodeStandIns(raw, n, &StandInsInfo{Words: m})
		if err != nil {
			t.Fatal(err)
		}
		return got
	})
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
	runtime.KeepAlive(words)
	runtime.KeepAlive(ids)
	t.Logf("%d stand-ins, %d text bytes: decoded heap %d bytes (%.2f per entry), bound %d; map[string]int32 control %d bytes",
		m, textBytes, heap, float64(heap)/m, bound, control)
	if heap > bound {
		t.Errorf("decoded stand-ins hold %d bytes of heap, bound %d", heap, bound)
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

// FuzzDecodeStandIns is FuzzDecode seeded with files carrying STANDINS.
func FuzzDecodeStandIns(f *testing.F) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, c := range []struct {
		n, m int
		full bool
	}{{1, 1, false}, {5, 4, false}, {12, 40, true}, {30, 300, false}} {
		addSeedAndFlips(f, mustMarshal(f, withStandIns(f, r, c.n, c.m, c.full)), 1, 5, 20)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, b)
		c := bytes.Clone(b)
		reseal(c)
		checkDecode(t, c)
	})
}
