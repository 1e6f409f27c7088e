package wva

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// smallFile returns a valid file holding every section kind, small enough
// to mutate byte by byte.
func smallFile(t testing.TB) []byte {
	a := genAsset(t, rand.New(rand.NewPCG(5, 5)), genOpts{n: 12, lists: 2, tem: true, neighbors: 4, dim: 3, utf8: true})
	words := make([]string, a.Len())
	for i := range words {
		words[i] = "representation" + string(rune('a'+i))
	}
	a.SetWords(words)
	// Float vectors that compress, so the DEFLATE path is covered too
	// (FLOATS is the one kind format 3 compresses).
	for i := range a.Floats {
		a.Floats[i] = float32(i % 4)
	}
	a.CusText = mustSets(t, a.Len(), 5, shuffledGroups(rand.New(rand.NewPCG(5, 6)), a.Len(), 5))
	a.Header.CusText = &CusTextInfo{Metric: "hamming"}
	var siWords []string
	var ids []int32
	for i := range 20 {
		siWords = append(siWords, string(rune('A'+i))+"epresentation")
		ids = append(ids, int32(i%a.Len()))
	}
	s, err := NewStandIns(a.Len(), siWords, ids)
	if err != nil {
		t.Fatal(err)
	}
	a.StandIns = s
	b := mustMarshal(t, a)
	v, _ := Inspect(b)
	if len(v.Sections) != int(kindLast) {
		t.Fatalf("small file has %d sections, want every kind", len(v.Sections))
	}
	for _, s := range v.Sections {
		if (s.Flags == flagDeflate) != (s.Kind == kindFloats) {
			t.Fatalf("small file's %s: flags %d; want only FLOATS compressed", s.Kind, s.Flags)
		}
	}
	return b
}

// TestEveryByteChange flips bits in every byte of a small file: decoding
// must fail every time, and with the error the changed region implies.
func TestEveryByteChange(t *testing.T) {
	orig := smallFile(t)
	in, err := Inspect(orig)
	if err != nil {
		t.Fatal(err)
	}
	// Padding between sections is not under a CRC but must be zero.
	padding := map[int]bool{}
	end := int(preambleSize) + len(mustJSON(t, in.Header)) + len(in.Sections)*entrySize + 4
	for _, s := range in.Sections {
		for i := end; i < int(s.Offset); i++ {
			padding[i] = true
		}
		end = int(s.Offset + s.Stored)
	}
	b := make([]byte, len(orig))
	for i := range orig {
		for _, m := range []byte{0x01, 0x10, 0x80, 0xff} {
			copy(b, orig)
			b[i] ^= m
			_, err := Decode(b)
			var want []error
			switch {
			case i < 8:
				want = []error{ErrBadMagic}
			case i < 10:
				want = []error{ErrVersion}
				if v := binary.LittleEndian.Uint16(b[8:]); v >= oldestMajor && v <= majorVersion {
					want = []error{ErrChecksum} // another version this reader reads
				}
			case i >= 12 && i < 20: // header length, section count
				want = []error{ErrChecksum, ErrTruncated, ErrCorrupt}
			case padding[i]:
				want = []error{ErrCorrupt}
			default:
				want = []error{ErrChecksum}
			}
			if !isAny(err, want) {
				t.Fatalf("byte %d ^ %#02x: Decode error %v, want one of %v", i, m, err, want)
			}
		}
	}
}

func mustJSON(tb testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func isAny(err error, targets []error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

func TestTruncation(t *testing.T) {
	b := smallFile(t)
	for n := 0; n < len(b); n++ {
		if _, err := Decode(b[:n]); !errors.Is(err, ErrTruncated) {
			t.Fatalf("prefix of %d/%d bytes: %v, want ErrTruncated", n, len(b), err)
		}
	}
	empty := mustMarshal(t, &Asset{})
	for n := 0; n < len(empty); n++ {
		if _, err := Decode(empty[:n]); !errors.Is(err, ErrTruncated) {
			t.Fatalf("prefix of %d/%d bytes of the empty asset: %v, want ErrTruncated", n, len(empty), err)
		}
	}
}

func TestTrailingBytes(t *testing.T) {
	b := smallFile(t)
	for _, extra := range [][]byte{{0}, {1, 2, 3}, make([]byte, 8), []byte(magic)} {
		if _, err := Decode(append(bytes.Clone(b), extra...)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%d trailing bytes: %v, want ErrCorrupt", len(extra), err)
		}
	}
}

func TestBadMagic(t *testing.T) {
	for _, in := range [][]byte{[]byte("WVASSEX\x00\x01\x00"), []byte("PK\x03\x04"), []byte("\x00")} {
		if _, err := Decode(in); !errors.Is(err, ErrBadMagic) {
			t.Errorf("%q: %v, want ErrBadMagic", in, err)
		}
	}
}

// fileParts returns the header and raw sections Marshal would write for a,
// all uncompressed (which the format allows), for tests to alter.
func fileParts(t testing.TB, a *Asset) (Header, []testSection) {
	h, err := a.derivedHeader()
	if err != nil {
		t.Fatal(err)
	}
	secs := []testSection{
		{kind: kindVocab, stored: encodeVocab(&a.words)},
		{kind: kindCodes, stored: hamming.AppendBytes(nil, a.Codes)},
	}
	if len(a.Lists) > 0 {
		secs = append(secs, testSection{kind: kindLists, stored: encodeLists(a.Lists, a.Len())})
	}
	if a.TEM != nil {
		secs = append(secs, testSection{kind: kindTEMLists, stored: encodeTEM(a.TEM)})
	}
	if a.Floats != nil {
		secs = append(secs, testSection{kind: kindFloats, stored: encodeFloats(a.Floats)})
	}
	return h, secs
}

// tinyAsset: 4 words, one list, TEM balls {0,1} at 2 steps, {1,3} at 3
// steps, G = 3; two floats per word.
func tinyAsset(t testing.TB) *Asset {
	tem, err := NewTEMLists(4, 0.5, 3, [][]Neighbor{
		{{ID: 1, Dist: 2}}, {{ID: 0, Dist: 2}, {ID: 3, Dist: 3}}, {}, {{ID: 1, Dist: 3}},
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPermutation([]uint32{2, 0, 3, 1})
	if err != nil {
		t.Fatal(err)
	}
	a := &Asset{
		Header: Header{Name: "tiny", Dim: 2, Lists: &ListsInfo{Metric: "hamming"}, TEM: &TEMInfo{Metric: "euclidean"}},
		Codes:  []hamming.Code{{1}, {2}, {3}, {4}},
		Lists:  []Permutation{p},
		TEM:    tem,
		Floats: []float32{1, 2, 3, 4, 5, 6, 7, 8},
	}
	a.SetWords([]string{"the", "cat", "sat", "mat"})
	return a
}

// temStream writes a TEMLISTS section by hand for the tiny asset's sizes.
func temStream(n, g uint32, pairs uint64, countBits, distBits uint, body func(w *bitpack.Writer)) []byte {
	head := make([]byte, temFixedLen)
	binary.LittleEndian.PutUint32(head[0:], n)
	binary.LittleEndian.PutUint32(head[4:], g)
	binary.LittleEndian.PutUint64(head[8:], pairs)
	head[16], head[17] = byte(countBits), byte(distBits)
	w := bitpack.NewWriter(head)
	body(w)
	return w.Bytes()
}

// deflateBytes compresses raw at any size ratio (compress refuses ratios
// the format forbids, which some tests need to build).
func deflateBytes(t testing.TB, raw []byte) []byte {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestSemanticCorruption builds checksum-valid files that each break one
// rule, and checks Decode names the problem with ErrCorrupt (or accepts the
// file, for the forward-compatibility rules).
func TestSemanticCorruption(t *testing.T) {
	sec := func(secs []testSection, k Kind) *testSection {
		for i := range secs {
			if secs[i].kind == k {
				return &secs[i]
			}
		}
		t.Fatalf("no section %s", k)
		return nil
	}
	// The tiny asset's FLOATS section is 4 words × 2 dims = 32 bytes; the
	// DEFLATE cases store it compressed (the one kind format 3 compresses).
	zeros := make([]byte, 32)
	for _, tc := range []struct {
		name   string
		mutate func(h *Header, secs []testSection) []testSection
		raw    func(b []byte) // applied to the built file, then resealed
		want   error          // nil: the file must decode
	}{
		{name: "valid baseline"},
		{name: "later minor version", raw: func(b []byte) { b[10] = 9 }},
		{name: "unknown section kind is skipped", mutate: func(h *Header, s []testSection) []testSection {
			return append(s, testSection{kind: 40, flags: 0xff, stored: []byte("future")})
		}},
		{name: "unknown header field is ignored", raw: nil, mutate: func(h *Header, s []testSection) []testSection {
			h.Description = "x"
			return s
		}},
		{name: "later major version", raw: func(b []byte) { b[8] = majorVersion + 1 }, want: ErrVersion},
		{name: "major version 1 (zstd sections)", raw: func(b []byte) { b[8] = 1 }, want: ErrVersion},
		{name: "major version 0", raw: func(b []byte) { b[8] = 0 }, want: ErrVersion},
		{name: "major version 2^16-1", raw: func(b []byte) { b[8], b[9] = 0xff, 0xff }, want: ErrVersion},
		{name: "reserved preamble", raw: func(b []byte) { b[21] = 1 }, want: ErrCorrupt},
		{name: "missing VOCAB", mutate: func(h *Header, s []testSection) []testSection { return s[1:] }, want: ErrCorrupt},
		{name: "kinds out of order", mutate: func(h *Header, s []testSection) []testSection {
			s[0], s[1] = s[1], s[0]
			return s
		}, want: ErrCorrupt},
		{name: "duplicate kind", mutate: func(h *Header, s []testSection) []testSection {
			return append(s[:2:2], s[1:]...)
		}, want: ErrCorrupt},
		{name: "compressed CODES", mutate: func(h *Header, s []testSection) []testSection {
			s[1].flags, s[1].raw = flagDeflate, uint64(len(s[1].stored))+1
			return s
		}, want: ErrCorrupt},
		{name: "unknown flag", mutate: func(h *Header, s []testSection) []testSection {
			s[0].flags = 2
			return s
		}, want: ErrCorrupt},
		{name: "raw length differs uncompressed", mutate: func(h *Header, s []testSection) []testSection {
			s[0].raw = uint64(len(s[0].stored)) + 1
			return s
		}, want: ErrCorrupt},
		{name: "deflate not smaller", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindFloats).flags = flagDeflate
			return s
		}, want: ErrCorrupt},
		{name: "deflate expansion above limit", mutate: func(h *Header, s []testSection) []testSection {
			f := sec(s, kindFloats)
			f.stored, f.flags = deflateBytes(t, zeros), flagDeflate
			f.raw = maxExpansion*uint64(len(f.stored)) + 1
			return s
		}, want: ErrCorrupt},
		{name: "deflate garbage", mutate: func(h *Header, s []testSection) []testSection {
			f := sec(s, kindFloats)
			f.stored, f.flags, f.raw = bytes.Repeat([]byte{0xff}, 16), flagDeflate, 32
			return s
		}, want: ErrCorrupt},
		{name: "deflate shorter than declared", mutate: func(h *Header, s []testSection) []testSection {
			f := sec(s, kindFloats)
			f.stored, f.flags, f.raw = deflateBytes(t, zeros[:28]), flagDeflate, 32
			return s
		}, want: ErrCorrupt},
		{name: "deflate longer than declared", mutate: func(h *Header, s []testSection) []testSection {
			f := sec(s, kindFloats)
			f.stored, f.flags, f.raw = deflateBytes(t, append(zeros, 0, 0, 0, 0)), flagDeflate, 32
			return s
		}, want: ErrCorrupt},
		{name: "deflate with trailing bytes", mutate: func(h *Header, s []testSection) []testSection {
			f := sec(s, kindFloats)
			f.stored, f.flags, f.raw = append(deflateBytes(t, zeros), 0), flagDeflate, 32
			return s
		}, want: ErrCorrupt},
		{name: "deflate valid", mutate: func(h *Header, s []testSection) []testSection {
			f := sec(s, kindFloats)
			f.stored, f.flags, f.raw = deflateBytes(t, zeros), flagDeflate, 32
			return s
		}},
		// Format 3 reads the word tables and the lists in place: stored
		// compressed, they are refused (a format-2 file may compress VOCAB
		// and STANDINS: TestFormat2Compression).
		{name: "compressed VOCAB", mutate: func(h *Header, s []testSection) []testSection {
			raw := s[0].stored
			s[0].stored, s[0].flags, s[0].raw = deflateBytes(t, raw), flagDeflate, uint64(len(raw))
			return s
		}, want: ErrCorrupt},
		{name: "compressed LISTS", mutate: func(h *Header, s []testSection) []testSection {
			l := sec(s, kindLists)
			raw := l.stored
			l.stored, l.flags, l.raw = deflateBytes(t, raw), flagDeflate, uint64(len(raw))
			return s
		}, want: ErrCorrupt},
		{name: "non-zero padding", raw: func(b []byte) {
			in, _ := parseContainer(b)
			end := uint64(preambleSize) + uint64(binary.LittleEndian.Uint32(b[12:])) + uint64(len(in.Sections))*entrySize + 4
			for _, s := range in.Sections {
				if s.Offset > end {
					b[s.Offset-1] = 7
					return
				}
				end = s.Offset + s.Stored
			}
			t.Fatal("no padding in the file")
		}, want: ErrCorrupt},
		{name: "offset not at next boundary", raw: func(b []byte) {
			e := b[preambleSize+binary.LittleEndian.Uint32(b[12:]):]
			binary.LittleEndian.PutUint64(e[8:], binary.LittleEndian.Uint64(e[8:])+8)
		}, want: ErrCorrupt},
		{name: "reserved table field", raw: func(b []byte) {
			b[preambleSize+binary.LittleEndian.Uint32(b[12:])+36] = 1
		}, want: ErrCorrupt},
		{name: "header not JSON", raw: func(b []byte) { b[preambleSize] = '[' }, want: ErrCorrupt},
		{name: "header words", mutate: func(h *Header, s []testSection) []testSection { h.Words = 5; return s }, want: ErrCorrupt},
		{name: "header negative words", mutate: func(h *Header, s []testSection) []testSection { h.Words = -1; return s }, want: ErrCorrupt},
		{name: "header codeBits", mutate: func(h *Header, s []testSection) []testSection { h.CodeBits = 128; return s }, want: ErrCorrupt},
		{name: "header dim", mutate: func(h *Header, s []testSection) []testSection { h.Dim = -2; return s }, want: ErrCorrupt},
		{name: "codes not whole", mutate: func(h *Header, s []testSection) []testSection {
			s[1].stored = s[1].stored[:len(s[1].stored)-1]
			return s
		}, want: ErrCorrupt},
		{name: "lists described, absent", mutate: func(h *Header, s []testSection) []testSection {
			return append(s[:2], s[3:]...)
		}, want: ErrCorrupt},
		{name: "lists present, not described", mutate: func(h *Header, s []testSection) []testSection { h.Lists = nil; return s }, want: ErrCorrupt},
		{name: "lists count", mutate: func(h *Header, s []testSection) []testSection { h.Lists.Count = 2; return s }, want: ErrCorrupt},
		{name: "lists start word", mutate: func(h *Header, s []testSection) []testSection { h.Lists.StartWords[0] = 1; return s }, want: ErrCorrupt},
		{name: "tem described, absent", mutate: func(h *Header, s []testSection) []testSection {
			return append(s[:3], s[4:]...)
		}, want: ErrCorrupt},
		{name: "tem gammaMax", mutate: func(h *Header, s []testSection) []testSection { h.TEM.GammaMax = 1.4; return s }, want: ErrCorrupt},
		{name: "tem step", mutate: func(h *Header, s []testSection) []testSection { h.TEM.Step = 0; return s }, want: ErrCorrupt},
		{name: "tem maxSteps", mutate: func(h *Header, s []testSection) []testSection {
			h.TEM.MaxSteps, h.TEM.GammaMax = 4, 2
			return s
		}, want: ErrCorrupt},
		{name: "tem pairs", mutate: func(h *Header, s []testSection) []testSection { h.TEM.Pairs = 3; return s }, want: ErrCorrupt},
		{name: "floats with dim 0", mutate: func(h *Header, s []testSection) []testSection { h.Dim = 0; return s }, want: ErrCorrupt},
		{name: "floats length", mutate: func(h *Header, s []testSection) []testSection { h.Dim = 3; return s }, want: ErrCorrupt},
		{name: "floats NaN", mutate: func(h *Header, s []testSection) []testSection {
			binary.LittleEndian.PutUint32(sec(s, kindFloats).stored[4:], math.Float32bits(float32(math.NaN())))
			return s
		}, want: ErrCorrupt},
		{name: "floats Inf", mutate: func(h *Header, s []testSection) []testSection {
			binary.LittleEndian.PutUint32(sec(s, kindFloats).stored[28:], math.Float32bits(float32(math.Inf(-1))))
			return s
		}, want: ErrCorrupt},
		{name: "vocab duplicate word", mutate: func(h *Header, s []testSection) []testSection {
			s[0].stored = encodeVocab(vocabOf("the", "cat", "the", "mat"))
			return s
		}, want: ErrCorrupt},
		{name: "vocab empty word", mutate: func(h *Header, s []testSection) []testSection {
			s[0].stored = rawVocab(4, 0, []uint32{0, 3, 3, 6, 9}, []uint32{1, 0, 3, 2}, "thecatmat")
			return s
		}, want: ErrCorrupt},
		{name: "vocab word too long", mutate: func(h *Header, s []testSection) []testSection {
			long := string(bytes.Repeat([]byte{'a'}, maxWordLen+1))
			s[0].stored = encodeVocab(vocabOf("the", "cat", long, "mat"))
			return s
		}, want: ErrCorrupt},
		{name: "vocab invalid UTF-8", mutate: func(h *Header, s []testSection) []testSection {
			s[0].stored = encodeVocab(vocabOf("the", "c\xffa", "sat", "mat"))
			return s
		}, want: ErrCorrupt},
		{name: "vocab UTF-8 split across words", mutate: func(h *Header, s []testSection) []testSection {
			s[0].stored = encodeVocab(vocabOf("the", "ca\xc3", "\xa9t", "mat"))
			return s
		}, want: ErrCorrupt},
		{name: "vocab text too long", mutate: func(h *Header, s []testSection) []testSection {
			s[0].stored = append(s[0].stored, 'x')
			return s
		}, want: ErrCorrupt},
		{name: "vocab text too short", mutate: func(h *Header, s []testSection) []testSection {
			s[0].stored = s[0].stored[:len(s[0].stored)-1]
			return s
		}, want: ErrCorrupt},
		{name: "list duplicate id", mutate: func(h *Header, s []testSection) []testSection {
			s[2].stored = encodeLists([]Permutation{{Order: []uint32{2, 0, 3, 0}}}, 4)
			return s
		}, want: ErrCorrupt},
		{name: "list id out of range", mutate: func(h *Header, s []testSection) []testSection {
			s[2].stored = encodeLists([]Permutation{{Order: []uint32{2, 0, 3, 4}}}, 4)
			return s
		}, want: ErrCorrupt},
		{name: "list id 2^32-1", mutate: func(h *Header, s []testSection) []testSection {
			s[2].stored = encodeLists([]Permutation{{Order: []uint32{2, 0, 3, 1<<32 - 1}}}, 4)
			return s
		}, want: ErrCorrupt},
		{name: "list count zero", mutate: func(h *Header, s []testSection) []testSection {
			s[2].stored[0] = 0
			s[2].stored = s[2].stored[:listsV3FixedLen]
			return s
		}, want: ErrCorrupt},
		{name: "list count above max", mutate: func(h *Header, s []testSection) []testSection {
			binary.LittleEndian.PutUint32(s[2].stored, maxLists+1)
			return s
		}, want: ErrCorrupt},
		{name: "list count 2^32-1", mutate: func(h *Header, s []testSection) []testSection {
			binary.LittleEndian.PutUint32(s[2].stored, 1<<32-1)
			return s
		}, want: ErrCorrupt},
		{name: "list count above the section's", mutate: func(h *Header, s []testSection) []testSection {
			s[2].stored[0] = 2
			return s
		}, want: ErrCorrupt},
		{name: "list words", mutate: func(h *Header, s []testSection) []testSection { s[2].stored[4] = 5; return s }, want: ErrCorrupt},
		{name: "list words 2^32-1", mutate: func(h *Header, s []testSection) []testSection {
			binary.LittleEndian.PutUint32(s[2].stored[4:], 1<<32-1)
			return s
		}, want: ErrCorrupt},
		{name: "list extra byte", mutate: func(h *Header, s []testSection) []testSection {
			s[2].stored = append(s[2].stored, 0)
			return s
		}, want: ErrCorrupt},
		{name: "list extra id", mutate: func(h *Header, s []testSection) []testSection {
			s[2].stored = binary.LittleEndian.AppendUint32(s[2].stored, 0)
			return s
		}, want: ErrCorrupt},
		{name: "list short", mutate: func(h *Header, s []testSection) []testSection {
			s[2].stored = s[2].stored[:len(s[2].stored)-4]
			return s
		}, want: ErrCorrupt},
		{name: "list shorter than its header", mutate: func(h *Header, s []testSection) []testSection {
			s[2].stored = s[2].stored[:listsV3FixedLen-1]
			return s
		}, want: ErrCorrupt},
		{name: "tem stream truncated", mutate: func(h *Header, s []testSection) []testSection {
			st := sec(s, kindTEMLists)
			st.stored = st.stored[:len(st.stored)-1]
			return s
		}, want: ErrCorrupt},
		{name: "tem short header", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored = make([]byte, temFixedLen-1)
			return s
		}, want: ErrCorrupt},
		{name: "tem words", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored[0] = 3
			return s
		}, want: ErrCorrupt},
		{name: "tem section maxSteps", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored[4] = 2
			return s
		}, want: ErrCorrupt},
		{name: "tem section pairs", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored[8] = 3
			return s
		}, want: ErrCorrupt},
		{name: "tem dist width", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored[17] = 3
			return s
		}, want: ErrCorrupt},
		{name: "tem reserved", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored[19] = 1
			return s
		}, want: ErrCorrupt},
		{name: "tem hand-written valid", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored = temStream(4, 3, 2, 1, 2, func(w *bitpack.Writer) {
				w.Write(1, 1) // word 0: one neighbour
				w.Write(0, 6) // gap width 0
				w.Write(0, 0) // gap 0 → id 1
				w.Write(2, 2) // distance 2
				w.Write(1, 1) // word 1: one neighbour
				w.Write(1, 6) // gap width 1
				w.Write(1, 1) // gap 1 → id 3
				w.Write(3, 2) // distance 3
				w.Write(0, 1) // word 2
				w.Write(0, 1) // word 3
			})
			return s
		}},
		{name: "tem neighbour id out of range", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored = temStream(4, 3, 2, 1, 2, func(w *bitpack.Writer) {
				w.Write(1, 1)
				w.Write(0, 6)
				w.Write(0, 0)
				w.Write(2, 2)
				w.Write(1, 1)
				w.Write(2, 6)
				w.Write(2, 2) // id 4
				w.Write(3, 2)
				w.Write(0, 1)
				w.Write(0, 1)
			})
			return s
		}, want: ErrCorrupt},
		{name: "tem distance above maxSteps", mutate: func(h *Header, s []testSection) []testSection {
			h.TEM.MaxSteps, h.TEM.GammaMax = 2, 1
			sec(s, kindTEMLists).stored = temStream(4, 2, 2, 1, 2, func(w *bitpack.Writer) {
				w.Write(1, 1)
				w.Write(0, 6)
				w.Write(2, 2)
				w.Write(1, 1)
				w.Write(1, 6)
				w.Write(1, 1)
				w.Write(3, 2) // 3 > 2
				w.Write(0, 1)
				w.Write(0, 1)
			})
			return s
		}, want: ErrCorrupt},
		{name: "tem gap width not minimal", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored = temStream(4, 3, 2, 1, 2, func(w *bitpack.Writer) {
				w.Write(1, 1)
				w.Write(1, 6) // gap 0 needs width 0
				w.Write(0, 1)
				w.Write(2, 2)
				w.Write(1, 1)
				w.Write(1, 6)
				w.Write(1, 1)
				w.Write(3, 2)
				w.Write(0, 1)
				w.Write(0, 1)
			})
			return s
		}, want: ErrCorrupt},
		{name: "tem gap width above 32", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored = temStream(4, 3, 2, 1, 2, func(w *bitpack.Writer) {
				w.Write(1, 1)
				w.Write(33, 6)
				w.Write(0, 32)
				w.Write(0, 1)
			})
			return s
		}, want: ErrCorrupt},
		{name: "tem count width not minimal", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored = temStream(4, 3, 2, 2, 2, func(w *bitpack.Writer) {
				w.Write(1, 2)
				w.Write(0, 6)
				w.Write(2, 2)
				w.Write(1, 2)
				w.Write(1, 6)
				w.Write(1, 1)
				w.Write(3, 2)
				w.Write(0, 2)
				w.Write(0, 2)
			})
			return s
		}, want: ErrCorrupt},
		{name: "tem count above words left", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored = temStream(4, 3, 2, 2, 2, func(w *bitpack.Writer) {
				w.Write(1, 2)
				w.Write(0, 6)
				w.Write(2, 2)
				w.Write(1, 2)
				w.Write(1, 6)
				w.Write(1, 1)
				w.Write(3, 2)
				w.Write(2, 2) // word 2 has only word 3 above it
			})
			return s
		}, want: ErrCorrupt},
		{name: "tem count width above 32", mutate: func(h *Header, s []testSection) []testSection {
			sec(s, kindTEMLists).stored[16] = 33
			return s
		}, want: ErrCorrupt},
		{name: "tem pair count mismatch", mutate: func(h *Header, s []testSection) []testSection {
			h.TEM.Pairs = 1
			sec(s, kindTEMLists).stored[8] = 1
			return s
		}, want: ErrCorrupt},
		{name: "tem trailing byte", mutate: func(h *Header, s []testSection) []testSection {
			st := sec(s, kindTEMLists)
			st.stored = append(st.stored, 0)
			return s
		}, want: ErrCorrupt},
		{name: "tem padding bits", mutate: func(h *Header, s []testSection) []testSection {
			st := sec(s, kindTEMLists)
			st.stored[len(st.stored)-1] |= 0x80
			return s
		}, want: ErrCorrupt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, secs := fileParts(t, tinyAsset(t))
			if tc.mutate != nil {
				secs = tc.mutate(&h, secs)
			}
			b := buildFile(mustJSON(t, h), secs)
			if tc.raw != nil {
				tc.raw(b)
				reseal(b)
			}
			for _, inPlace := range []bool{false, true} {
				a, err := DecodeWith(b, DecodeOptions{InPlace: inPlace})
				if tc.want == nil {
					if err != nil {
						t.Fatalf("Decode (in place %v): %v", inPlace, err)
					}
					if a.Len() == 0 {
						t.Fatal("empty asset")
					}
					continue
				}
				if !errors.Is(err, tc.want) || strings.Contains(err.Error(), internalPanic) {
					t.Fatalf("Decode (in place %v) error %v, want %v", inPlace, err, tc.want)
				}
				if !inPlace {
					t.Log(err)
				}
			}
		})
	}
}

// TestDeflateBomb checks that a compressed section cannot claim more than
// MaxExpansion times its size, even when its frame really holds more: in
// a format-3 file (FLOATS, the kind it may compress) and a format-2 one
// (VOCAB).
func TestDeflateBomb(t *testing.T) {
	raw := bytes.Repeat([]byte{'a'}, 1<<20)
	z := deflateBytes(t, raw)
	if len(z)*maxExpansion >= len(raw) { // 1 MiB of one byte always compresses this much
		t.Fatalf("deflate made %d bytes of 1 MiB of one byte: the bomb cannot be built", len(z))
	}
	bomb := testSection{flags: flagDeflate, stored: z, raw: uint64(len(raw))}
	for _, tc := range []struct {
		major uint16
		kind  Kind
	}{{majorVersion, kindFloats}, {oldestMajor, kindVocab}} {
		h := Header{CodeBits: 256}
		secs := []testSection{{kind: kindVocab, stored: encodeVocab(vocabOf())}, {kind: kindCodes}}
		if tc.major == oldestMajor {
			secs[0].stored = nil
		}
		bomb.kind = tc.kind
		if tc.kind == kindVocab {
			secs[0] = bomb
		} else {
			h.Dim = 1
			secs = append(secs, bomb)
		}
		b := buildFileMajor(tc.major, 0, mustJSON(t, h), secs)
		if _, err := Decode(b); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "ratio") {
			t.Fatalf("format %d, %s: Decode: %v, want ErrCorrupt on the ratio", tc.major, tc.kind, err)
		}
	}
}
