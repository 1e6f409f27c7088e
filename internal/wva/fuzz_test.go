package wva

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

var sentinels = []error{ErrBadMagic, ErrVersion, ErrChecksum, ErrTruncated, ErrCorrupt}

// FuzzDecode feeds arbitrary bytes to Decode, and the same bytes with their
// checksums recomputed (so mutations reach the section decoders instead of
// stopping at a CRC). Decode must not panic, must return one of the
// sentinel errors, must allocate within the file's size and the decoding
// budget (and, for a file it accepts, within the cost model's bound), and
// whatever it accepts must be a valid asset that decodes the same in
// place, re-encodes and decodes again. The seeds are format-3 files with
// every section kind and format-2 files (the 2.x writers' fixtures and
// the test's format-2 writer, compressed and not).
func FuzzDecode(f *testing.F) {
	full := withStandIns(f, rand.New(rand.NewPCG(3, 3)), 20, 60, true)
	valid := [][]byte{
		smallFile(f),
		mustMarshal(f, &Asset{}),
		mustMarshal(f, tinyAsset(f)),
		mustMarshal(f, genAsset(f, rand.New(rand.NewPCG(1, 1)), genOpts{n: 1, lists: 1, tem: true, dim: 1})),
		mustMarshal(f, genAsset(f, rand.New(rand.NewPCG(2, 2)), genOpts{n: 40, lists: 2, tem: true, neighbors: 8})),
		mustMarshal(f, full),
		v2File(f, full, true),
		v2File(f, full, false),
		v2File(f, tinyAsset(f), true),
	}
	for _, name := range []string{"testdata/v2.0-tiny.wva", "testdata/v2.1-full.wva"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		valid = append(valid, b)
	}
	for _, b := range valid {
		f.Add(b)
		f.Add(b[:len(b)/2])
		f.Add(append(bytes.Clone(b), 0))
		for _, i := range []int{9, 30, len(b) / 3, len(b) - 1} {
			c := bytes.Clone(b)
			c[i] ^= 0x5a
			f.Add(c)
		}
	}
	for _, k := range []Kind{kindVocab, kindFloats, kindStandIns} {
		for _, major := range []uint16{oldestMajor, majorVersion} {
			f.Add(bombFile(f, major, k, 1<<20)) // declares 64× its stored length
		}
	}
	f.Add([]byte{})
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecode(t, b)
		c := bytes.Clone(b)
		reseal(c)
		checkDecode(t, c)
	})
}

func checkDecode(t *testing.T, b []byte) {
	var a *Asset
	var err error
	got := allocated(func() { a, err = Decode(b) })
	if limit := uint64(len(b)) + DefaultMaxDecodeMemory + 64<<10 + 8*maxHeaderLen; got > limit {
		t.Fatalf("Decode allocated %d bytes for a %d-byte file, above %d", got, len(b), limit)
	}
	if err == nil {
		// An accepted file's header is valid, so the cost model applies
		// to it: what decoding allocated is within its bound.
		in, perr := parseContainer(b)
		if perr != nil {
			t.Fatalf("Decode accepted what the container parser refuses: %v", perr)
		}
		var sec [kindLast + 1]*SectionInfo
		for i := range in.Sections {
			if k := in.Sections[i].Kind; k.known() {
				sec[k] = &in.Sections[i]
			}
		}
		if cost, _ := decodeCost(&in.Header, &sec, in.Major, DecodeOptions{}); got > cost+parseSlack(b) {
			t.Fatalf("Decode allocated %d bytes, the cost model bounds it by %d + %d", got, cost, parseSlack(b))
		}
	}
	if err != nil {
		if strings.Contains(err.Error(), internalPanic) {
			t.Fatalf("Decode panicked: %v", err)
		}
		if !isAny(err, sentinels) {
			t.Fatalf("error wraps no sentinel: %v", err)
		}
		return
	}
	if _, err := Inspect(b); err != nil {
		t.Fatalf("Decode accepted what Inspect refuses: %v", err)
	}
	if err := a.Validate(); err != nil {
		t.Fatalf("Decode accepted an invalid asset: %v", err)
	}
	inPlace, err := DecodeWith(aligned8Copy(b), DecodeOptions{InPlace: true})
	if err != nil {
		t.Fatalf("Decode accepted what DecodeWith(InPlace) refuses: %v", err)
	}
	checkEqual(t, a, inPlace)
	checkSetsEqual(t, a.CusText, inPlace.CusText)
	again, err := Marshal(a)
	if err != nil {
		t.Fatalf("re-encoding a decoded asset: %v", err)
	}
	a2, err := Decode(again)
	if err != nil {
		t.Fatalf("decoding a re-encoded asset: %v", err)
	}
	checkEqual(t, a, a2)
}

func TestPanicError(t *testing.T) {
	err := panicError("boom")
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), internalPanic) || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panicError = %v", err)
	}
}
