package wva

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// consecutiveGroups partitions 0..n−1 into runs of k ids (a valid,
// canonical partition; how groups are chosen is not the format's concern).
func consecutiveGroups(n, k int) [][]uint32 {
	var gs [][]uint32
	for s := 0; s < n; s += k {
		var g []uint32
		for id := s; id < min(s+k, n); id++ {
			g = append(g, uint32(id))
		}
		gs = append(gs, g)
	}
	return gs
}

// shuffledGroups is a random partition of n words into groups of k, with
// the groups and their members in random order (NewCusTextSets
// canonicalizes). A short group holds the highest ids, so that it is last
// in canonical order, as a greedy build's is.
func shuffledGroups(r *rand.Rand, n, k int) [][]uint32 {
	full := n - n%k
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	r.Shuffle(full, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	var gs [][]uint32
	for s := 0; s < n; s += k {
		gs = append(gs, slices.Clone(perm[s:min(s+k, n)]))
	}
	r.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
	return gs
}

func mustSets(tb testing.TB, n, k int, gs [][]uint32) *CusTextSets {
	tb.Helper()
	s, err := NewCusTextSets(n, k, gs)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// checkSetsEqual fails unless the two sets hold the same partition.
func checkSetsEqual(t *testing.T, want, got *CusTextSets) {
	t.Helper()
	if (want == nil) != (got == nil) {
		t.Fatalf("CusText present: got %v, want %v", got != nil, want != nil)
	}
	if want == nil {
		return
	}
	if want.Len() != got.Len() || want.K() != got.K() || want.Groups() != got.Groups() {
		t.Fatalf("sets: got N=%d K=%d G=%d, want N=%d K=%d G=%d", got.Len(), got.K(), got.Groups(), want.Len(), want.K(), want.Groups())
	}
	for g := range want.Groups() {
		if a, b := want.Members(g, nil), got.Members(g, nil); !slices.Equal(a, b) {
			t.Fatalf("group %d: got %v, want %v", g, b, a)
		}
	}
	for w := range want.Len() {
		if want.GroupOf(w) != got.GroupOf(w) {
			t.Fatalf("GroupOf(%d): got %d, want %d", w, got.GroupOf(w), want.GroupOf(w))
		}
	}
}

func TestCusTextRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, tc := range []struct {
		name string
		n, k int
		full bool // also lists, TEM and floats
	}{
		{"empty vocabulary", 0, 2, false},
		{"one word, one short group", 1, 2, false},
		{"last group of one", 7, 3, false},
		{"exact groups", 40, 5, true},
		{"one group larger than N", 5, 4096, false},
		{"random partition", 300, 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a *Asset
			if tc.full {
				a = genAsset(t, r, genOpts{n: tc.n, lists: 2, tem: true, neighbors: 4, dim: 2})
			} else {
				a = wordsAsset(genWords(r, tc.n, false))
			}
			a.CusText = mustSets(t, tc.n, tc.k, shuffledGroups(r, tc.n, tc.k))
			a.Header.CusText = &CusTextInfo{Metric: "hamming"}
			b := mustMarshal(t, a)
			got, err := Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			checkEqual(t, a, got)
			checkSetsEqual(t, a.CusText, got.CusText)
			if got.Header.CusText.K != tc.k || got.Header.CusText.Groups != (tc.n+tc.k-1)/tc.k || got.Header.CusText.Metric != "hamming" {
				t.Fatalf("header %+v", *got.Header.CusText)
			}
			// Without the sets the file has no "custext" in the header, and
			// every other section is byte-identical to its counterpart in
			// the file with sets.
			a.CusText, a.Header.CusText = nil, nil
			plain := mustMarshal(t, a)
			if plain[10] != minorVersion || bytes.Contains(plain, []byte(`"custext"`)) {
				t.Fatalf("file without sets: minor %d, header mentions custext = %v", plain[10], bytes.Contains(plain, []byte(`"custext"`)))
			}
			withInfo, err := Inspect(b)
			if err != nil {
				t.Fatal(err)
			}
			plainInfo, err := Inspect(plain)
			if err != nil {
				t.Fatal(err)
			}
			if len(withInfo.Sections) != len(plainInfo.Sections)+1 {
				t.Fatalf("%d sections with sets, %d without", len(withInfo.Sections), len(plainInfo.Sections))
			}
			for i, p := range plainInfo.Sections {
				w := withInfo.Sections[i]
				if w.Kind != p.Kind || !bytes.Equal(b[w.Offset:w.Offset+w.Stored], plain[p.Offset:p.Offset+p.Stored]) {
					t.Fatalf("section %s differs when CUSTEXT is added", p.Kind)
				}
			}
		})
	}
}

func TestCusTextSetsAccessors(t *testing.T) {
	s := mustSets(t, 7, 3, [][]uint32{{6}, {5, 1, 4}, {3, 2, 0}})
	if s.Len() != 7 || s.K() != 3 || s.Groups() != 3 {
		t.Fatalf("N=%d K=%d G=%d", s.Len(), s.K(), s.Groups())
	}
	want := [][]uint32{{0, 2, 3}, {1, 4, 5}, {6}}
	for g, m := range want {
		if got := s.Members(g, nil); !slices.Equal(got, m) {
			t.Errorf("Members(%d) = %v, want %v", g, got, m)
		}
		for _, w := range m {
			if s.GroupOf(int(w)) != g {
				t.Errorf("GroupOf(%d) = %d, want %d", w, s.GroupOf(int(w)), g)
			}
		}
	}
	if got := s.Members(1, []uint32{9}); !slices.Equal(got, []uint32{9, 1, 4, 5}) {
		t.Errorf("Members appends: %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("Members(3) did not panic")
		}
	}()
	s.Members(3, nil)
}

func TestNewCusTextSetsInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		n, k int
		gs   [][]uint32
	}{
		{"k = 1 releases words unchanged", 2, 1, [][]uint32{{0}, {1}}},
		{"k = 0", 2, 0, nil},
		{"k above the bound", 2, maxCusTextK + 1, [][]uint32{{0, 1}}},
		{"negative n", -1, 2, nil},
		{"too few groups", 4, 2, [][]uint32{{0, 1, 2, 3}}},
		{"too many groups", 4, 2, [][]uint32{{0}, {1}, {2, 3}}},
		{"empty group", 3, 2, [][]uint32{{0, 1, 2}, {}}},
		{"word twice", 4, 2, [][]uint32{{0, 1}, {1, 3}}},
		{"id out of range", 4, 2, [][]uint32{{0, 1}, {2, 4}}},
		{"short group not last", 5, 2, [][]uint32{{0, 1}, {2}, {3, 4}}},
		{"group too large", 4, 2, [][]uint32{{0, 1, 2}, {3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewCusTextSets(tc.n, tc.k, tc.gs); !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
		})
	}
	// An asset whose sets cover another vocabulary size is refused too.
	a := wordsAsset([]string{"a", "b", "c"})
	a.CusText = mustSets(t, 2, 2, [][]uint32{{0, 1}})
	if _, err := Marshal(a); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Marshal with sets of 2 words over 3: %v", err)
	}
	a.CusText = mustSets(t, 3, 2, consecutiveGroups(3, 2))
	a.Header.CusText = &CusTextInfo{K: 3}
	if _, err := Marshal(a); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Marshal with header k disagreeing: %v", err)
	}
}

// custextSection writes a CUSTEXT section by hand.
func custextSection(n, k, g uint32, idBits uint, ids []uint32) []byte {
	b := make([]byte, custextFixedLen)
	binary.LittleEndian.PutUint32(b[0:], n)
	binary.LittleEndian.PutUint32(b[4:], k)
	binary.LittleEndian.PutUint32(b[8:], g)
	b[12] = byte(idBits)
	return bitpack.Pack(b, ids, idBits)
}

// TestCusTextCorruption builds checksum-valid files whose CUSTEXT section
// or its header description breaks one rule; Decode must refuse each with
// ErrCorrupt. The base asset has 7 words in groups of 3: {0,2,3} {1,4,5} {6}.
func TestCusTextCorruption(t *testing.T) {
	base := func() *Asset {
		a := wordsAsset([]string{"a", "b", "c", "d", "e", "f", "g"})
		a.Header = Header{Name: "sets", CusText: &CusTextInfo{Metric: "hamming"}}
		a.CusText = mustSets(t, 7, 3, [][]uint32{{0, 2, 3}, {1, 4, 5}, {6}})
		return a
	}
	good := []uint32{0, 2, 3, 1, 4, 5, 6}
	for _, tc := range []struct {
		name string
		// mutate gets the header and the CUSTEXT section's bytes.
		mutate func(h *Header, sec []byte) []byte
		want   error
	}{
		{"valid baseline", func(h *Header, s []byte) []byte { return s }, nil},
		{"hand-written baseline", func(h *Header, s []byte) []byte { return custextSection(7, 3, 3, 3, good) }, nil},
		{"section without header description", func(h *Header, s []byte) []byte { h.CusText = nil; return s }, ErrCorrupt},
		{"header k = 1", func(h *Header, s []byte) []byte { h.CusText.K = 1; return s }, ErrCorrupt},
		{"header groups wrong", func(h *Header, s []byte) []byte { h.CusText.Groups = 2; return s }, ErrCorrupt},
		{"section N differs", func(h *Header, s []byte) []byte { return custextSection(8, 3, 3, 3, good) }, ErrCorrupt},
		{"section k differs from header", func(h *Header, s []byte) []byte { return custextSection(7, 4, 2, 3, good) }, ErrCorrupt},
		{"section k = 1", func(h *Header, s []byte) []byte {
			h.CusText.K, h.CusText.Groups = 1, 7
			return custextSection(7, 1, 7, 3, good)
		}, ErrCorrupt},
		{"section k huge", func(h *Header, s []byte) []byte { return custextSection(7, 1<<31, 1, 3, good) }, ErrCorrupt},
		{"section group count", func(h *Header, s []byte) []byte { return custextSection(7, 3, 4, 3, good) }, ErrCorrupt},
		{"id width", func(h *Header, s []byte) []byte { return custextSection(7, 3, 3, 4, good) }, ErrCorrupt},
		{"reserved byte", func(h *Header, s []byte) []byte { s[14] = 1; return s }, ErrCorrupt},
		{"ids truncated", func(h *Header, s []byte) []byte { return s[:len(s)-1] }, ErrCorrupt},
		{"ids too long", func(h *Header, s []byte) []byte { return append(s, 0) }, ErrCorrupt},
		{"non-zero padding bits", func(h *Header, s []byte) []byte { s[len(s)-1] |= 0x80; return s }, ErrCorrupt},
		{"id out of range", func(h *Header, s []byte) []byte {
			return custextSection(7, 3, 3, 3, []uint32{0, 2, 3, 1, 4, 5, 7})
		}, ErrCorrupt},
		{"word in two groups", func(h *Header, s []byte) []byte {
			return custextSection(7, 3, 3, 3, []uint32{0, 2, 3, 1, 3, 5, 6})
		}, ErrCorrupt},
		{"group not ascending", func(h *Header, s []byte) []byte {
			return custextSection(7, 3, 3, 3, []uint32{0, 3, 2, 1, 4, 5, 6})
		}, ErrCorrupt},
		{"groups out of order", func(h *Header, s []byte) []byte {
			return custextSection(7, 3, 3, 3, []uint32{1, 4, 5, 0, 2, 3, 6})
		}, ErrCorrupt},
		{"short group not last", func(h *Header, s []byte) []byte {
			return custextSection(7, 3, 3, 3, []uint32{0, 2, 3, 6, 1, 4, 5})
		}, ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := base()
			h, secs := fileParts(t, a)
			sec := tc.mutate(&h, encodeCusText(a.CusText))
			secs = append(secs, testSection{kind: kindCusText, stored: sec})
			got, err := Decode(buildFile(mustJSON(t, h), secs))
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				checkSetsEqual(t, a.CusText, got.CusText)
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	// A header describing sets the file lacks is refused as well.
	a := base()
	h, secs := fileParts(t, a)
	if _, err := Decode(buildFile(mustJSON(t, h), secs)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("header without section: %v", err)
	}
	// A reader that predates CUSTEXT sees an unknown kind after FLOATS and
	// an unknown header field: both ignored. Simulated with kind 40, which
	// this reader does not know either.
	h.CusText = nil
	secs = append(secs, testSection{kind: 40, stored: encodeCusText(a.CusText)})
	if got, err := Decode(buildFile(mustJSON(t, h), secs)); err != nil || got.CusText != nil {
		t.Fatalf("unknown kind: %v", err)
	}
}

// TestCusTextSize pins the section's size at the product's scale: 50k
// words, K = 20, 16 bits per id.
func TestCusTextSize(t *testing.T) {
	const n, k = 50000, 20
	s := mustSets(t, n, k, consecutiveGroups(n, k))
	if got, want := len(encodeCusText(s)), custextFixedLen+n*16/8; got != want {
		t.Fatalf("section is %d bytes, want %d", got, want)
	}
}

// FuzzDecodeCusText is FuzzDecode seeded with files carrying CUSTEXT,
// format 3 and format 2.
func FuzzDecodeCusText(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, c := range []struct{ n, k int }{{0, 2}, {1, 2}, {7, 3}, {30, 4}} {
		a := wordsAsset(genWords(r, c.n, false))
		a.CusText = mustSets(f, c.n, c.k, shuffledGroups(r, c.n, c.k))
		addSeedAndFlips(f, mustMarshal(f, a), 1, 5, 14)
		addSeedAndFlips(f, v2File(f, a, true), 1, 5, 14)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, b)
		c := bytes.Clone(b)
		reseal(c)
		checkDecode(t, c)
		if a, err := Decode(c); err == nil && a.CusText != nil {
			again, err := Decode(mustMarshal(t, a))
			if err != nil {
				t.Fatal(err)
			}
			checkSetsEqual(t, a.CusText, again.CusText)
		}
	})
}
