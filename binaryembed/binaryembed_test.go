package binaryembed_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/binaryembed"
	"github.com/wordveil/wordveil/hamming"
)

// checkView checks what an Embedding promises whatever the asset: ids
// and words agree both ways, codes and Codes agree, the lists are
// permutations, the exclusion list ascends within range, and ids outside
// [0, Len()) answer false.
func checkView(t *testing.T, e *binaryembed.Embedding) {
	t.Helper()
	n := e.Len()
	if len(e.Codes()) != n {
		t.Fatalf("%d codes for %d words", len(e.Codes()), n)
	}
	words := e.Words()
	if len(words) != n {
		t.Fatalf("Words has %d words, Len %d", len(words), n)
	}
	step := max(1, n/500)
	for id := 0; id < n; id += step {
		w, ok := e.Word(id)
		if !ok || w == "" || words[id] != w {
			t.Fatalf("Word(%d) = %q, %v; Words has %q", id, w, ok, words[id])
		}
		if got, ok := e.Lookup(w); !ok || got != id {
			t.Fatalf("Lookup(Word(%d) = %q) = %d, %v", id, w, got, ok)
		}
		if c, ok := e.Code(id); !ok || c != e.Codes()[id] {
			t.Fatalf("Code(%d) disagrees with Codes", id)
		}
	}
	for _, id := range []int{-1, n, n + 1} {
		if w, ok := e.Word(id); ok || w != "" {
			t.Fatalf("Word(%d) = %q, %v", id, w, ok)
		}
		if c, ok := e.Code(id); ok || c != (hamming.Code{}) {
			t.Fatalf("Code(%d) = %v, %v", id, c, ok)
		}
	}
	for i, l := range e.Lists() {
		seen := make([]bool, n)
		for _, id := range l {
			if int(id) >= n || seen[id] {
				t.Fatalf("list %d is not a permutation of the ids", i)
			}
			seen[id] = true
		}
		if len(l) != n {
			t.Fatalf("list %d has %d ids for %d words", i, len(l), n)
		}
	}
	ex := e.Excluded()
	if !slices.IsSorted(ex) || len(ex) > 0 && (ex[0] < 0 || ex[len(ex)-1] >= n) {
		t.Fatalf("exclusion list not ascending within [0, %d)", n)
	}
}

// TestDefault: the embedded asset, its shape, and its sharing.
func TestDefault(t *testing.T) {
	e, err := binaryembed.Default()
	if err != nil {
		t.Fatal(err)
	}
	if e.Len() != 50000 || len(e.Lists()) != 2 || len(e.Excluded()) != 214 {
		t.Fatalf("%d words, %d lists, %d excluded; want 50000, 2, 214 (assets/README.md)", e.Len(), len(e.Lists()), len(e.Excluded()))
	}
	checkView(t, e)
	for _, w := range []string{"the", "privacy", "keyboard", "n't", "lol", "1990"} {
		if _, ok := e.Lookup(w); !ok {
			t.Errorf("%q not in the default vocabulary", w)
		}
	}
	for _, w := range []string{"", "The", "keyboard ", "zzzzqx"} {
		if id, ok := e.Lookup(w); ok {
			t.Errorf("Lookup(%q) = %d, true", w, id)
		}
	}
	e2, _ := binaryembed.Default()
	x, _ := e.Index()
	x2, _ := e2.Index()
	if e2 != e || x2 != x {
		t.Fatal("Default or its Index made twice")
	}
	// Every word's code is at distance 0 from itself: the index and the
	// codes agree.
	for _, id := range []int{0, 1, 4242, 49999} {
		c, _ := e.Code(id)
		n, err := x.Nearest(c, nil)
		if err != nil || n.Dist != 0 || e.Codes()[n.ID] != c {
			t.Fatalf("Nearest(Code(%d)) = %+v, %v", id, n, err)
		}
	}
}

// TestDecodeAndOpen: Decode and Open give the same view as Default, and
// Decode keeps no reference to its input.
func TestDecodeAndOpen(t *testing.T) {
	def, err := binaryembed.Default()
	if err != nil {
		t.Fatal(err)
	}
	b := bytes.Clone(assets.DefaultBytes())
	e, err := binaryembed.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	clear(b) // the view must not see this
	path := filepath.Join(t.TempDir(), assets.DefaultName)
	if err := os.WriteFile(path, assets.DefaultBytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := binaryembed.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]*binaryembed.Embedding{"Decode": e, "Open": f} {
		checkView(t, got)
		if got.Len() != def.Len() || !slices.Equal(got.Codes(), def.Codes()) ||
			!slices.EqualFunc(got.Lists(), def.Lists(), slices.Equal) || !slices.Equal(got.Excluded(), def.Excluded()) {
			t.Fatalf("%s: differs from Default", name)
		}
		for _, id := range []int{0, 777, 49999} {
			w, _ := got.Word(id)
			dw, _ := def.Word(id)
			if w != dw {
				t.Fatalf("%s: Word(%d) = %q, Default's %q", name, id, w, dw)
			}
		}
	}
}

// TestErrors: bytes that are not a valid asset, whatever is wrong with
// them, give ErrCorrupt; paths that are not files give ErrNotFile or the
// file system's error. The valid asset is the control.
func TestErrors(t *testing.T) {
	good := assets.DefaultBytes()
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x10 // inside a section: its checksum fails
	badMagic := bytes.Clone(good)
	badMagic[0] = 'X'
	badVersion := bytes.Clone(good)
	badVersion[8] = 99 // the major version
	cases := []struct {
		name string
		b    []byte
		want error
	}{
		{"valid (control)", good, nil},
		{"nil", nil, binaryembed.ErrCorrupt},
		{"empty", []byte{}, binaryembed.ErrCorrupt},
		{"magic only", good[:8], binaryembed.ErrCorrupt},
		{"header cut", good[:40], binaryembed.ErrCorrupt},
		{"half", good[:len(good)/2], binaryembed.ErrCorrupt},
		{"one byte short", good[:len(good)-1], binaryembed.ErrCorrupt},
		{"one byte more", append(bytes.Clone(good), 0), binaryembed.ErrCorrupt},
		{"a bit flipped", flipped, binaryembed.ErrCorrupt},
		{"bad magic", badMagic, binaryembed.ErrCorrupt},
		{"unknown version", badVersion, binaryembed.ErrCorrupt},
	}
	dir := t.TempDir()
	for i, c := range cases {
		e, err := binaryembed.Decode(c.b)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) || (err == nil) != (e != nil) {
			t.Errorf("Decode(%s): %v, want %v", c.name, err, c.want)
		}
		path := filepath.Join(dir, "case"+string(rune('a'+i)))
		if err := os.WriteFile(path, c.b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := binaryembed.Open(path); !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("Open(%s): %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := binaryembed.Open(dir); !errors.Is(err, binaryembed.ErrNotFile) {
		t.Errorf("Open(a directory): %v, want ErrNotFile", err)
	}
	if _, err := binaryembed.Open(filepath.Join(dir, "missing.wva")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(a missing file): %v, want fs.ErrNotExist", err)
	}
}

// TestNilAndZero: a nil or zero Embedding is an empty one; nothing panics.
func TestNilAndZero(t *testing.T) {
	for name, e := range map[string]*binaryembed.Embedding{"nil": nil, "zero": new(binaryembed.Embedding)} {
		if e.Len() != 0 || e.Words() != nil || e.Codes() != nil || e.Lists() != nil || e.Excluded() != nil {
			t.Errorf("%s: not empty", name)
		}
		if _, ok := e.Word(0); ok {
			t.Errorf("%s: Word(0) found", name)
		}
		if _, ok := e.Code(0); ok {
			t.Errorf("%s: Code(0) found", name)
		}
		if _, ok := e.Lookup("the"); ok {
			t.Errorf("%s: Lookup found a word", name)
		}
		x, err := e.Index()
		if err != nil || x.Len() != 0 {
			t.Errorf("%s: Index = %v, %v; want an empty index", name, x, err)
		}
		if _, err := x.Nearest(hamming.Code{}, nil); !errors.Is(err, hamming.ErrEmpty) {
			t.Errorf("%s: Nearest on the empty index: %v", name, err)
		}
	}
}

// FuzzDecode: whatever the bytes, Decode returns an error wrapping
// ErrCorrupt or a view that keeps every promise; it never panics. Seeded
// with the embedded asset, cut and altered.
func FuzzDecode(f *testing.F) {
	good := assets.DefaultBytes()
	f.Add(bytes.Clone(good))
	for _, n := range []int{0, 7, 8, 12, 64, 4096, len(good) / 3, len(good) - 1} {
		f.Add(bytes.Clone(good[:n]))
	}
	for _, at := range []int{9, 20, 100, len(good) / 2, len(good) - 5} {
		b := bytes.Clone(good)
		b[at] ^= 0xff
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := binaryembed.Decode(b)
		if err != nil {
			if !errors.Is(err, binaryembed.ErrCorrupt) || e != nil {
				t.Fatalf("error %v does not wrap ErrCorrupt (or came with a view)", err)
			}
			return
		}
		checkView(t, e)
	})
}
