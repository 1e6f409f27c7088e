package wva_test

import (
	"crypto/sha256"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// inside reports whether p points into b.
func inside(p unsafe.Pointer, b []byte) bool {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return uintptr(p) >= lo && uintptr(p) < lo+uintptr(len(b))
}

// TestEmbeddedCodesInPlace: decoding the embedded asset uses its CODES
// section where it lies (no copy), and a copy of the file at an address
// misaligned for a Code decodes to the same asset by copying the codes;
// every mechanism then releases the same words from the same seeded
// source over either. The misaligned decode is the control: its codes
// must not point into its input.
func TestEmbeddedCodesInPlace(t *testing.T) {
	file := assets.DefaultBytes()
	inPlace, err := wva.DecodeWith(file, wva.DecodeOptions{InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	if !inside(unsafe.Pointer(&inPlace.Codes[0]), file) {
		t.Fatal("the embedded asset's codes were copied, not used in place")
	}
	buf := make([]byte, len(file)+1) // a large allocation: 8-aligned, so buf[1:] is not
	shifted := buf[1:]
	copy(shifted, file)
	copied, err := wva.DecodeWith(shifted, wva.DecodeOptions{InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	if inside(unsafe.Pointer(&copied.Codes[0]), shifted) {
		t.Fatal("codes at a misaligned address were used in place")
	}
	if !slices.Equal(inPlace.Codes, copied.Codes) {
		t.Fatal("the codes differ between the in-place and the copied decode")
	}
	want := sha256.Sum256(file)
	if inPlace.SHA256() != want || copied.SHA256() != want {
		t.Fatal("SHA256 is not the file's hash")
	}

	words := make([]int, 200)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range words {
		words[i] = r.IntN(inPlace.Len())
	}
	for _, name := range mechanism.Names() {
		// The balanced preset (CusText's light, the only level it
		// reaches); the TEM lists' calibration reaches no level on this
		// asset, so TEM gets a fixed ε.
		level := mechanism.LevelBalanced
		if name == mechanism.NameCusText {
			level = mechanism.LevelLight
		}
		eps, err := mechanism.Preset(inPlace, name, level)
		if name == mechanism.NameTEM {
			eps, err = 10, nil
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		draw := func(a *wva.Asset) []int {
			m, err := mechanism.New(name, a, eps, mechanism.Options{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			src := rand.NewPCG(3, 4)
			out := make([]int, len(words))
			for i, w := range words {
				if out[i], err = m.Privatize(w, src); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			return out
		}
		if a, b := draw(inPlace), draw(copied); !slices.Equal(a, b) {
			t.Errorf("%s: outputs differ between the in-place and the copied codes", name)
		}
	}
}
