package wva

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/internal/wva/internal/bitpack"
)

// checkFormat2File decodes the format-2 file b (by copy, and in place from
// an aligned buffer), checks it against want (every section; lookups of
// every word and stand-in; the CusText groups), then re-marshals it: the
// result is a format-3 file that decodes, both ways, to the same content,
// and re-marshals to itself.
func checkFormat2File(t *testing.T, b []byte, want *Asset) {
	t.Helper()
	in, err := Inspect(b)
	if err != nil {
		t.Fatal(err)
	}
	if in.Major != oldestMajor {
		t.Fatalf("fixture is format %d.%d, want %d", in.Major, in.Minor, oldestMajor)
	}
	var v3 []byte
	for _, opt := range []DecodeOptions{{}, {InPlace: true}} {
		got, err := DecodeWith(aligned8Copy(b), opt)
		if err != nil {
			t.Fatalf("format 2 (in place %v): %v", opt.InPlace, err)
		}
		checkEqual(t, want, got)
		checkSetsEqual(t, want.CusText, got.CusText)
		again := mustMarshal(t, got)
		if v3 == nil {
			v3 = again
		} else if !bytes.Equal(again, v3) {
			t.Fatal("the asset decoded in place and by copy re-marshal differently")
		}
	}
	in3, err := Inspect(v3)
	if err != nil {
		t.Fatal(err)
	}
	if in3.Major != majorVersion || in3.Minor != minorVersion {
		t.Fatalf("re-marshalled as format %d.%d, want %d.%d", in3.Major, in3.Minor, majorVersion, minorVersion)
	}
	for _, opt := range []DecodeOptions{{}, {InPlace: true}} {
		got, err := DecodeWith(aligned8Copy(v3), opt)
		if err != nil {
			t.Fatalf("re-marshalled (in place %v): %v", opt.InPlace, err)
		}
		checkEqual(t, want, got)
		checkSetsEqual(t, want.CusText, got.CusText)
		if !bytes.Equal(mustMarshal(t, got), v3) {
			t.Fatal("a format-3 file does not re-marshal to itself")
		}
	}
}

// TestFormat2Full: testdata/v2.1-full.wva, written by the 2.1 writer with
// every section kind, decodes to v21Asset, and Decode(Marshal(Decode(b)))
// round-trips through format 3.
func TestFormat2Full(t *testing.T) {
	b, err := os.ReadFile("testdata/v2.1-full.wva")
	if err != nil {
		t.Fatal(err)
	}
	want := v21Asset(t)
	checkFormat2File(t, b, want)
	a, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if a.Header.Excluded == nil || len(a.Header.Excluded.IDs) != 3 || a.Header.Name != "v2.1-full" {
		t.Fatalf("header: %+v", a.Header)
	}
	for i := range want.StandIns.Len() {
		w, id := want.StandIns.At(i)
		if got, ok := a.StandIn(w); !ok || got != id {
			t.Fatalf("StandIn(%q) = %d, %v; want %d", w, got, ok, id)
		}
	}
	// The test's format-2 writer (v2enc_test.go) writes the fixture byte
	// for byte, so the files it writes for other tests are format-2 files
	// as the 2.1 writer made them.
	if !bytes.Equal(v2File(t, want, true), b) {
		t.Error("v2File(v21Asset) differs from the 2.1 writer's file")
	}
}

// TestFormat2Tiny: testdata/v2.0-tiny.wva, written by the 2.0 writer
// before STANDINS existed, decodes to the tiny asset with CusText sets,
// without stand-ins, and round-trips through format 3.
func TestFormat2Tiny(t *testing.T) {
	b, err := os.ReadFile("testdata/v2.0-tiny.wva")
	if err != nil {
		t.Fatal(err)
	}
	want := tinyAsset(t)
	want.CusText = mustSets(t, 4, 2, [][]uint32{{0, 1}, {2, 3}})
	want.Header.CusText = &CusTextInfo{Metric: "hamming"}
	want.Header.Description = "format 2.0 file written before STANDINS existed"
	in, err := Inspect(b)
	if err != nil {
		t.Fatal(err)
	}
	if in.Minor != 0 {
		t.Fatalf("fixture is format 2.%d, want 2.0", in.Minor)
	}
	checkFormat2File(t, b, want)
	a, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if a.StandIns != nil || a.Header.StandIns != nil {
		t.Fatal("2.0 file decoded with stand-ins")
	}
	if !bytes.Equal(v2File(t, want, true), b) {
		t.Error("v2File(tiny) differs from the 2.0 writer's file")
	}
}

// TestFormat2DefaultAsset: the shipped asset, when it is a format-2 file,
// round-trips through format 3 to the same content. (A format-3 default
// asset is covered by the assets package.)
func TestFormat2DefaultAsset(t *testing.T) {
	if testing.Short() {
		t.Skip("4 MB asset")
	}
	b := bytes.Clone(assets.DefaultBytes())
	in, err := Inspect(b)
	if err != nil {
		t.Fatal(err)
	}
	if in.Major != oldestMajor {
		t.Skipf("default asset is format %d", in.Major)
	}
	a, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	v3 := mustMarshal(t, a)
	again, err := DecodeWith(aligned8Copy(v3), DecodeOptions{InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, a, again)
	checkSetsEqual(t, a.CusText, again.CusText)
	// What an app ships is the file in a zip archive: within 10% of the
	// format-2 file's.
	z2, z3 := zipped(t, b), zipped(t, v3)
	t.Logf("on disk: format 2 %d bytes, format 3 %d bytes; in a zip: %d and %d bytes (ratio %.3f)", len(b), len(v3), z2, z3, float64(z3)/float64(z2))
	if float64(z3) > 1.10*float64(z2) {
		t.Errorf("the default asset in format 3 zips to %d bytes, above 110%% of format 2's %d", z3, z2)
	}
}

// TestFormat2Compression: a format-2 file may store VOCAB and STANDINS
// compressed (the 2.x writer did) and is read either way; format 3 refuses
// the same sections compressed, and LISTS compressed in either format.
func TestFormat2Compression(t *testing.T) {
	a := withStandIns(t, rand.New(rand.NewPCG(9, 9)), 200, 300, true)
	for _, deflate := range []bool{false, true} {
		b := v2File(t, a, deflate)
		in, err := Inspect(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range in.Sections {
			if compressed := s.Flags&flagDeflate != 0; s.Kind != kindFloats && compressed != (deflate && (s.Kind == kindVocab || s.Kind == kindStandIns)) {
				t.Fatalf("deflate %v: %s compressed = %v", deflate, s.Kind, compressed)
			}
		}
		got, err := Decode(b)
		if err != nil {
			t.Fatalf("format 2, deflate %v: %v", deflate, err)
		}
		checkEqual(t, a, got)
		checkSetsEqual(t, a.CusText, got.CusText)
	}
	h, secs := fileParts(t, a)
	h2, secs2 := v2Parts(t, a, false)
	secs = append(secs, testSection{kind: kindCusText, stored: encodeCusText(a.CusText)}, testSection{kind: kindStandIns, stored: encodeStandIns(a.StandIns)})
	for _, tc := range []struct {
		major uint16
		kind  Kind
		ok    bool
	}{
		{majorVersion, kindVocab, false},
		{majorVersion, kindLists, false},
		{majorVersion, kindStandIns, false},
		{majorVersion, kindCusText, false},
		{majorVersion, kindTEMLists, false},
		{oldestMajor, kindVocab, true},
		{oldestMajor, kindStandIns, true},
		{oldestMajor, kindLists, false},
		{oldestMajor, kindCusText, false},
	} {
		hh, ss := h, secs
		if tc.major == oldestMajor {
			hh, ss = h2, secs2
		}
		ss = append([]testSection(nil), ss...)
		for i := range ss {
			if ss[i].kind == tc.kind {
				raw := ss[i].stored
				ss[i].stored, ss[i].flags, ss[i].raw = deflateBytes(t, raw), flagDeflate, uint64(len(raw))
			}
		}
		_, err := Decode(buildFileMajor(tc.major, 1, mustJSON(t, hh), ss))
		if tc.ok != (err == nil) {
			t.Fatalf("format %d, %s compressed: %v, want ok = %v", tc.major, tc.kind, err, tc.ok)
		}
		if err != nil && (!errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "always stored raw")) {
			t.Fatalf("format %d, %s compressed: %v, want ErrCorrupt (stored raw)", tc.major, tc.kind, err)
		}
	}
}

// TestVersions: major versions 2 and 3 are read; 0, 1, 4 and above are
// refused with ErrVersion before anything else is read, whatever follows.
func TestVersions(t *testing.T) {
	a := tinyAsset(t)
	for major, ok := range map[uint16]bool{0: false, 1: false, 2: true, 3: true, 4: false, 5: false, 1<<16 - 1: false} {
		var b []byte
		if major == oldestMajor {
			b = v2File(t, a, true)
		} else {
			b = mustMarshal(t, a)
			b[8], b[9] = byte(major), byte(major>>8)
			reseal(b)
		}
		_, err := Decode(b)
		if ok != (err == nil) {
			t.Errorf("major %d: %v, want ok = %v", major, err, ok)
		}
		if !ok && !errors.Is(err, ErrVersion) {
			t.Errorf("major %d: %v, want ErrVersion", major, err)
		}
		// The version is checked as soon as it can be read.
		if _, err := Decode(b[:10]); !ok && !errors.Is(err, ErrVersion) {
			t.Errorf("major %d, 10 bytes: %v, want ErrVersion", major, err)
		}
	}
}

// TestFormat2Corruption: the readers of format-2 VOCAB and LISTS sections
// (varint lengths; bit-packed ids) refuse what breaks their layouts, as
// before format 3, with ErrCorrupt and no panic. The base is the tiny
// asset (the cat sat mat; one list 2 0 3 1, 2-bit ids) written as a
// format-2 file.
func TestFormat2Corruption(t *testing.T) {
	fiveWords := func(h *Header, s []testSection) {
		// 5 words take 3-bit ids, which can spell 5..7, and leave one
		// padding bit in a list.
		h.Words, h.Lists.StartWords, h.TEM, h.Dim = 5, []uint32{0}, nil, 0
		s[0].stored = encodeVocabV2([]string{"a", "b", "c", "d", "e"})
		s[1].stored = make([]byte, 5*32)
	}
	for _, tc := range []struct {
		name   string
		mutate func(h *Header, s []testSection) []testSection
		msg    string
	}{
		{"baseline", func(h *Header, s []testSection) []testSection { return s }, ""},
		{"vocab duplicate word", func(h *Header, s []testSection) []testSection {
			s[0].stored = encodeVocabV2([]string{"the", "cat", "the", "mat"})
			return s
		}, `word "the" at ids`},
		{"vocab empty word", func(h *Header, s []testSection) []testSection {
			s[0].stored = []byte{3, 3, 0, 3, 't', 'h', 'e', 'c', 'a', 't', 'm', 'a', 't'}
			return s
		}, "has length 0"},
		{"vocab non-minimal length", func(h *Header, s []testSection) []testSection {
			s[0].stored = []byte{3, 3, 3, 0x83, 0x00, 't', 'h', 'e', 'c', 'a', 't', 's', 'a', 't', 'm', 'a', 't'}
			return s
		}, "not minimally encoded"},
		{"vocab bad varint", func(h *Header, s []testSection) []testSection {
			s[0].stored = append([]byte{3, 3, 3}, bytes.Repeat([]byte{0xff}, 11)...)
			return s
		}, "not a valid varint"},
		{"vocab word too long", func(h *Header, s []testSection) []testSection {
			s[0].stored = encodeVocabV2([]string{"the", "cat", strings.Repeat("a", maxWordLen+1), "mat"})
			return s
		}, "has length 1025"},
		{"vocab lengths past the section", func(h *Header, s []testSection) []testSection {
			s[0].stored = []byte{3, 3, 3, 100, 't', 'h', 'e', 'c', 'a', 't', 's', 'a', 't', 'm', 'a', 't'}
			return s
		}, "lengths sum past"},
		{"vocab text too long", func(h *Header, s []testSection) []testSection {
			s[0].stored = append(s[0].stored, 'x')
			return s
		}, "lengths sum to 12 bytes, 13"},
		{"vocab invalid UTF-8", func(h *Header, s []testSection) []testSection {
			s[0].stored = encodeVocabV2([]string{"the", "c\xffa", "sat", "mat"})
			return s
		}, "not valid UTF-8"},
		{"vocab UTF-8 split across words", func(h *Header, s []testSection) []testSection {
			s[0].stored = encodeVocabV2([]string{"the", "ca\xc3", "\xa9t", "mat"})
			return s
		}, "not valid UTF-8"},
		{"list duplicate id", func(h *Header, s []testSection) []testSection {
			s[2].stored = encodeListsV2([]Permutation{{Order: []uint32{2, 0, 3, 0}}}, 4)
			return s
		}, "not a permutation"},
		{"list id out of range", func(h *Header, s []testSection) []testSection {
			fiveWords(h, s)
			s[2].stored = bitpack.Pack(encodeListsV2(nil, 5), []uint32{0, 1, 2, 3, 7}, 3)
			binary.LittleEndian.PutUint32(s[2].stored, 1)
			return s[:3]
		}, "not a permutation"},
		{"list padding bits", func(h *Header, s []testSection) []testSection {
			fiveWords(h, s)
			l := encodeListsV2([]Permutation{{Order: []uint32{0, 1, 2, 3, 4}}}, 5)
			l[len(l)-1] |= 0x80
			s[2].stored = l
			return s[:3]
		}, "padding"},
		{"list reserved", func(h *Header, s []testSection) []testSection { s[2].stored[10] = 5; return s }, "reserved"},
		{"list id width", func(h *Header, s []testSection) []testSection { s[2].stored[8] = 3; return s }, "id width 3"},
		{"list extra byte", func(h *Header, s []testSection) []testSection {
			s[2].stored = append(s[2].stored, 0)
			return s
		}, "header counts allow"},
		{"list count zero", func(h *Header, s []testSection) []testSection {
			s[2].stored = s[2].stored[:listsFixedLen]
			s[2].stored[0] = 0
			return s
		}, "0 lists"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, secs := v2Parts(t, tinyAsset(t), false)
			secs = tc.mutate(&h, secs)
			_, err := Decode(buildFileMajor(oldestMajor, 0, mustJSON(t, h), secs))
			if tc.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrCorrupt) || strings.Contains(err.Error(), internalPanic) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("err = %v, want ErrCorrupt naming %q", err, tc.msg)
			}
		})
	}
}
