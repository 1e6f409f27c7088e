package wva

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    genOpts
	}{
		{"empty", genOpts{}},
		{"empty all sections", genOpts{lists: 2, tem: true, dim: 3}},
		{"one word", genOpts{n: 1}},
		{"one word all sections", genOpts{n: 1, lists: 1, tem: true, dim: 4}},
		{"two words", genOpts{n: 2, lists: 3, tem: true, neighbors: 2}},
		{"small", genOpts{n: 17, lists: 3, tem: true, neighbors: 6, utf8: true}},
		{"no optional", genOpts{n: 300}},
		{"lists only", genOpts{n: 300, lists: 5}},
		{"tem only", genOpts{n: 300, tem: true, neighbors: 20}},
		{"floats only", genOpts{n: 300, dim: 16}},
		{"dense tem", genOpts{n: 200, tem: true, neighbors: 300}},
		{"medium", genOpts{n: 3000, lists: 3, tem: true, neighbors: 20, dim: 8, utf8: true}},
		{"17-bit ids", genOpts{n: 70000, lists: 1, tem: true, neighbors: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.o.n > 10000 {
				t.Skip("large")
			}
			a := genAsset(t, rand.New(rand.NewPCG(uint64(tc.o.n), 9)), tc.o)
			b := mustMarshal(t, a)
			got, err := Decode(b)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			checkEqual(t, a, got)
			// Re-encoding the decoded asset reproduces the file byte for byte.
			if again := mustMarshal(t, got); !bytes.Equal(again, b) {
				t.Fatalf("re-encoding a decoded asset changed the bytes")
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	o := genOpts{n: 500, lists: 3, tem: true, neighbors: 20, dim: 4, utf8: true}
	b1 := mustMarshal(t, genAsset(t, rand.New(rand.NewPCG(1, 1)), o))
	b2 := mustMarshal(t, genAsset(t, rand.New(rand.NewPCG(1, 1)), o))
	if !bytes.Equal(b1, b2) {
		t.Fatal("two encodings of equal assets differ")
	}
}

// TestCompressionChoice checks the storage policy of format 3: only the
// float vectors are compressed (when that saves space); the sections read
// in place (vocabulary, codes, lists, CusText sets, stand-ins) and the TEM
// lists never are, even when they would compress, and every section is
// 8-aligned.
func TestCompressionChoice(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	a := withStandIns(t, r, 2000, 3000, true)
	for i := range a.Floats {
		a.Floats[i] = float32(r.IntN(16)) // compresses, within MaxExpansion
	}
	words := a.WordList()
	for i := range words {
		words[i] = "representation-" + words[i] // the vocabulary would compress too
	}
	a.SetWords(words)
	in, err := Inspect(mustMarshal(t, a))
	if err != nil {
		t.Fatal(err)
	}
	if in.Major != majorVersion || len(in.Sections) != int(kindLast) {
		t.Fatalf("format %d with %d sections, want %d with every kind", in.Major, len(in.Sections), majorVersion)
	}
	for _, s := range in.Sections {
		compressed := s.Flags&flagDeflate != 0
		if compressed != (s.Kind == kindFloats) {
			t.Errorf("%s: compressed = %v", s.Kind, compressed)
		}
		if s.Offset%align != 0 {
			t.Errorf("%s at unaligned offset %d", s.Kind, s.Offset)
		}
	}
	if v := compress(encodeVocab(&a.words)); v == nil {
		t.Error("control: the vocabulary does not compress, so the test shows nothing")
	}
	if in.Header.Words != 2000 || in.Header.Lists.Count != 2 || in.Header.TEM == nil {
		t.Errorf("Inspect header = %+v", in.Header)
	}
}

func TestLoad(t *testing.T) {
	a := genAsset(t, rand.New(rand.NewPCG(3, 3)), genOpts{n: 50, lists: 1, tem: true, neighbors: 5})
	path := filepath.Join(t.TempDir(), "a.wva")
	if err := os.WriteFile(path, mustMarshal(t, a), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	checkEqual(t, a, got)
	if _, err := Load(filepath.Join(t.TempDir(), "missing.wva")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	if err := os.WriteFile(path, []byte("WVASSET\x00\x04\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); !errors.Is(err, ErrVersion) {
		t.Fatalf("bad file: %v", err)
	}
}

func TestVector(t *testing.T) {
	a := &Asset{Header: Header{Dim: 2}, Floats: []float32{1, 2, 3, 4}}
	a.SetWords([]string{"x", "y"})
	if v := a.Vector(1); len(v) != 2 || v[0] != 3 || v[1] != 4 || cap(v) != 2 {
		t.Errorf("Vector(1) = %v", v)
	}
	b := &Asset{}
	b.SetWords([]string{"x"})
	if b.Vector(0) != nil {
		t.Error("Vector without floats")
	}
}
