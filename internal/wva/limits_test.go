package wva

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/assets"
)

// allocated returns the bytes the Go heap allocated while f ran (all
// goroutines: the stand-ins are decoded in one of their own). Tests that
// call it do not run in parallel.
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// parseSlack bounds what DecodeWith allocates besides the sections'
// decoders (decodeCost): the section table, the parsed JSON header (a
// few times its length), the result and the goroutine.
func parseSlack(b []byte) uint64 {
	return 64<<10 + 8*uint64(binary.LittleEndian.Uint32(b[12:]))
}

// TestDecodeCostBoundsAllocation checks the cost model against what
// decoding really allocates, on assets with every section kind: the
// budget is only a bound if the model is.
func TestDecodeCostBoundsAllocation(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 21))
	full := withStandIns(t, r, 3000, 5000, true)
	wide := genAsset(t, r, genOpts{n: 4000, lists: 4, tem: true, neighbors: 30, dim: 16, utf8: true})
	v21, err := os.ReadFile("testdata/v2.1-full.wva")
	if err != nil {
		t.Fatal(err)
	}
	// Format 3 read in place allocates least, and by copy most: both are
	// bounded. Format 2 is bounded too, with its sections compressed or
	// not.
	inPlace := DecodeOptions{InPlace: true}
	for _, tc := range []struct {
		name string
		b    []byte
		opt  DecodeOptions
	}{
		{"every section", mustMarshal(t, full), DecodeOptions{}},
		{"every section, in place", aligned8Copy(mustMarshal(t, full)), inPlace},
		{"every section, in place, misaligned", misaligned(mustMarshal(t, full)), inPlace},
		{"lists, dense TEM and floats", mustMarshal(t, wide), DecodeOptions{}},
		{"lists, dense TEM and floats, in place", aligned8Copy(mustMarshal(t, wide)), inPlace},
		{"without TEM and floats", mustMarshal(t, wide), DecodeOptions{SkipTEM: true, SkipFloats: true}},
		{"format 2, every section, compressed", v2File(t, full, true), DecodeOptions{}},
		{"format 2, every section, raw", v2File(t, full, false), DecodeOptions{}},
		{"format 2, every section, in place", aligned8Copy(v2File(t, full, true)), inPlace},
		{"format 2.1 fixture", v21, DecodeOptions{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := parseContainer(tc.b)
			if err != nil {
				t.Fatal(err)
			}
			var sec [kindLast + 1]*SectionInfo
			for i := range in.Sections {
				sec[in.Sections[i].Kind] = &in.Sections[i]
			}
			cost, _ := decodeCost(&in.Header, &sec, in.Major, tc.opt)
			var derr error
			got := allocated(func() { _, derr = DecodeWith(tc.b, tc.opt) })
			if derr != nil {
				t.Fatal(derr)
			}
			t.Logf("file %d bytes, estimated %d, allocated %d", len(tc.b), cost, got)
			if got > cost+parseSlack(tc.b) {
				t.Fatalf("decoding allocated %d bytes, the cost model bounds it by %d + %d", got, cost, parseSlack(tc.b))
			}
		})
	}
}

// TestDefaultAssetWithinBudget: the shipped asset decodes under the
// default budget with room to grow, and the model bounds what it
// allocates.
func TestDefaultAssetWithinBudget(t *testing.T) {
	b := bytes.Clone(assets.DefaultBytes())
	in, err := parseContainer(b)
	if err != nil {
		t.Fatal(err)
	}
	var sec [kindLast + 1]*SectionInfo
	for i := range in.Sections {
		sec[in.Sections[i].Kind] = &in.Sections[i]
	}
	cost, _ := decodeCost(&in.Header, &sec, in.Major, DecodeOptions{})
	got := allocated(func() { _, err = Decode(b) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("default asset: estimated %.1f MiB, allocated %.1f MiB, budget %d MiB", float64(cost)/(1<<20), float64(got)/(1<<20), DefaultMaxDecodeMemory>>20)
	if cost > DefaultMaxDecodeMemory*3/4 {
		t.Errorf("default asset's decoding cost %d leaves less than a quarter of the %d budget", cost, DefaultMaxDecodeMemory)
	}
	if got > cost+parseSlack(b) {
		t.Errorf("decoding allocated %d bytes, the model bounds it by %d", got, cost)
	}
}

// bombFile returns a file of 10 words in the given format whose section
// of kind is a DEFLATE stream of raw zero bytes, padded so that it
// declares exactly 64 times its stored length: the container's ratio rule
// passes it, and only the per-kind maximum (or, in format 3, the rule
// that the kind is stored raw) stops it before inflating.
func bombFile(t testing.TB, major uint16, kind Kind, raw int) []byte {
	t.Helper()
	const n = 10
	h := Header{CodeBits: 256, Words: n}
	words := make([]string, n)
	for i := range words {
		words[i] = strings.Repeat("w", i+1)
	}
	z := deflateBytes(t, make([]byte, raw))
	stored := make([]byte, max(len(z), raw/maxExpansion))
	copy(stored, z)
	vocab := encodeVocab(vocabOf(words...))
	if major == oldestMajor {
		vocab = encodeVocabV2(words)
	}
	secs := []testSection{
		{kind: kindVocab, stored: vocab},
		{kind: kindCodes, stored: make([]byte, n*32)},
	}
	bomb := testSection{kind: kind, flags: flagDeflate, stored: stored, raw: uint64(raw)}
	switch kind {
	case kindVocab:
		secs[0] = bomb
	case kindFloats:
		h.Dim = 1
		secs = append(secs, bomb)
	case kindStandIns:
		h.StandIns = &StandInsInfo{Words: 1}
		secs = append(secs, bomb)
	}
	return buildFileMajor(major, 0, mustJSON(t, h), secs)
}

// TestRawSizeLimits: a compressed section of each kind that declares
// more raw bytes than the header's counts allow is refused, naming the
// section and the limit, without allocating its declared size. Reverting
// the per-kind maxima makes decompress allocate the 4 MiB and fails this.
// Format 3 stores VOCAB and STANDINS raw, so there a compressed one is
// refused by the section table already.
func TestRawSizeLimits(t *testing.T) {
	const raw = 4 << 20
	for _, tc := range []struct {
		major uint16
		kind  Kind
		msg   string
	}{
		{oldestMajor, kindVocab, "header counts allow"},
		{oldestMajor, kindStandIns, "header counts allow"},
		// FLOATS' exact length (4·words·dim) is a header rule, checked first.
		{oldestMajor, kindFloats, "FLOATS section holds"},
		{majorVersion, kindFloats, "FLOATS section holds"},
		{majorVersion, kindVocab, "always stored raw"},
		{majorVersion, kindStandIns, "always stored raw"},
	} {
		t.Run(fmt.Sprintf("format %d %s", tc.major, tc.kind), func(t *testing.T) {
			b := bombFile(t, tc.major, tc.kind, raw)
			var err error
			got := allocated(func() { _, err = Decode(b) })
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tc.kind.String()) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("Decode: %v, want ErrCorrupt naming %s and %q", err, tc.kind, tc.msg)
			}
			t.Logf("%d-byte file: %v; %d bytes allocated", len(b), err, got)
			if limit := uint64(len(b)) + parseSlack(b); got > limit {
				t.Fatalf("refusing the file allocated %d bytes, above %d", got, limit)
			}
		})
	}
}

// TestDecodeBudget: a file within every per-kind maximum whose decoding
// would still need more than MaxMemory (here a TEM section claiming 8
// pairs per byte, 40 bytes each in memory) is refused before anything is
// sized by its counts; the budget can be raised and never be negative.
func TestDecodeBudget(t *testing.T) {
	const n, body = 1000, 1 << 20
	words := genWords(rand.New(rand.NewPCG(5, 5)), n, false)
	tem := make([]byte, temFixedLen+body)
	binary.LittleEndian.PutUint32(tem[0:], n)
	binary.LittleEndian.PutUint32(tem[4:], 1)
	binary.LittleEndian.PutUint64(tem[8:], 8*body)
	tem[16], tem[17] = 0, 1
	h := Header{CodeBits: 256, Words: n, TEM: &TEMInfo{Metric: "euclidean", Step: 1, MaxSteps: 1, GammaMax: 1, Pairs: 8 * body}}
	b := buildFile(mustJSON(t, h), []testSection{
		{kind: kindVocab, stored: encodeVocab(vocabOf(words...))},
		{kind: kindCodes, stored: make([]byte, n*32)},
		{kind: kindTEMLists, stored: tem},
	})
	var err error
	got := allocated(func() { _, err = Decode(b) })
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "section TEMLISTS") || !strings.Contains(err.Error(), "MaxMemory") {
		t.Fatalf("Decode: %v, want ErrCorrupt naming TEMLISTS and the budget", err)
	}
	t.Logf("%v; %d bytes allocated", err, got)
	if limit := uint64(len(b)) + parseSlack(b); got > limit {
		t.Fatalf("refusing the file allocated %d bytes, above %d", got, limit)
	}
	// Without the TEM lists the same file is within budget (and then
	// fails nothing else: the TEM section is only checksummed).
	if _, err := DecodeWith(b, DecodeOptions{SkipTEM: true}); err != nil {
		t.Fatalf("DecodeWith(SkipTEM): %v", err)
	}
	if _, err := DecodeWith(b, DecodeOptions{MaxMemory: -1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("negative MaxMemory: %v, want ErrInvalid", err)
	}
	// A valid asset needs some memory: a budget of one byte refuses it,
	// its own estimate admits it.
	valid := mustMarshal(t, genAsset(t, rand.New(rand.NewPCG(6, 6)), genOpts{n: 200, lists: 1, tem: true, neighbors: 4}))
	if _, err := DecodeWith(valid, DecodeOptions{MaxMemory: 1}); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("MaxMemory 1: %v, want ErrCorrupt", err)
	}
	if _, err := DecodeWith(valid, DecodeOptions{MaxMemory: 1 << 30}); err != nil {
		t.Fatalf("MaxMemory 1 GiB: %v", err)
	}
}

// TestHugeDeclaredRaw patches each section of a valid asset (every kind,
// format 3 and format 2) to declare far more raw bytes than it holds — 64
// times its stored length, the most the container allows, and 2^62 —
// compressed where the kind may be: every file fails cleanly (one of the
// sentinels) and decoding allocates within the file and the budget.
func TestHugeDeclaredRaw(t *testing.T) {
	a := withStandIns(t, rand.New(rand.NewPCG(8, 8)), 3000, 5000, true)
	for _, valid := range [][]byte{mustMarshal(t, a), v2File(t, a, true)} {
		in, err := parseContainer(valid)
		if err != nil {
			t.Fatal(err)
		}
		tableAt := preambleSize + uint64(binary.LittleEndian.Uint32(valid[12:]))
		for i, s := range in.Sections {
			for _, raw := range []uint64{maxExpansion * s.Stored, 1 << 62} {
				b := bytes.Clone(valid)
				e := b[tableAt+uint64(i)*entrySize:]
				if s.Kind.compressible(in.Major) {
					binary.LittleEndian.PutUint32(e[4:], flagDeflate)
				}
				binary.LittleEndian.PutUint64(e[24:], raw)
				reseal(b)
				var err error
				got := allocated(func() { _, err = Decode(b) })
				if err == nil || !isAny(err, sentinels) || strings.Contains(err.Error(), internalPanic) {
					t.Fatalf("format %d: %s declaring %d raw bytes: %v", in.Major, s.Kind, raw, err)
				}
				if limit := uint64(len(b)) + DefaultMaxDecodeMemory + parseSlack(b); got > limit {
					t.Fatalf("format %d: %s declaring %d raw bytes: allocated %d, above %d", in.Major, s.Kind, raw, got, limit)
				}
			}
		}
	}
}

// TestWriteExpansionAsset writes, when WVA_EXPANSION_DIR names a
// directory, expansion-vocab.wva: an 8 MB format-2 asset (format 3 never
// compresses VOCAB) of 50,000 words whose
// VOCAB section is a real DEFLATE stream of 410 MB of zeros padded to
// 6.4 MB, declaring 64 times its stored length. It is the file for
// measuring a command's peak memory on such an asset (/usr/bin/time -v);
// the tests above check the same property by bytes allocated.
func TestWriteExpansionAsset(t *testing.T) {
	dir := os.Getenv("WVA_EXPANSION_DIR")
	if dir == "" {
		t.Skip("set WVA_EXPANSION_DIR to write the file")
	}
	const n, stored = 50_000, 6_400_000
	raw := make([]byte, maxExpansion*stored)
	z := deflateBytes(t, raw)
	if len(z) > stored {
		t.Fatalf("deflate stream of %d bytes", len(z))
	}
	vocab := make([]byte, stored)
	copy(vocab, z)
	b := buildFileMajor(oldestMajor, 0, mustJSON(t, Header{CodeBits: 256, Words: n}), []testSection{
		{kind: kindVocab, flags: flagDeflate, stored: vocab, raw: uint64(len(raw))},
		{kind: kindCodes, stored: make([]byte, n*32)},
	})
	path := dir + "/expansion-vocab.wva"
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Decode(b)
	t.Logf("wrote %s (%d bytes); Decode: %v", path, len(b), err)
}
