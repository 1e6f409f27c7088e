package wva

import (
	"crypto/sha256"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/wordveil/wordveil/internal/hamming"
)

// aligned8 returns a zeroed n-byte slice at an 8-aligned address (backed
// by uint64s), so that tests do not depend on the allocator for it.
func aligned8(n int) []byte {
	w := make([]uint64, (n+8)/8)
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*8)[:n]
}

// pointsInto reports whether codes' first element lies inside b.
func pointsInto(codes []hamming.Code, b []byte) bool {
	if len(codes) == 0 || len(b) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(&codes[0]))
	lo := uintptr(unsafe.Pointer(&b[0]))
	return p >= lo && p < lo+uintptr(len(b))
}

// TestCodesInPlace: a CODES section is used in place exactly when its
// address is aligned for a Code (on a little-endian host), and decodes to
// the same codes either way; the shifted cases are the negative control.
func TestCodesInPlace(t *testing.T) {
	want := []hamming.Code{{1, 2, 3, 4}, {^uint64(0), 0, 1 << 63, 0x0123456789abcdef}, {5, 6, 7, 8}}
	enc := hamming.AppendBytes(nil, want)
	align := int(unsafe.Alignof(hamming.Code{}))
	for _, tc := range []struct {
		name  string
		shift int // bytes from an 8-aligned address
		alias bool
	}{
		{"aligned", 0, littleEndian},
		{"shifted 1", 1, false},
		{"shifted 4", 4, littleEndian && align <= 4}, // 386 and 32-bit ARM align uint64 to 4
		{"shifted 7", 7, false},
		{"shifted 8", 8, littleEndian},
	} {
		t.Run(tc.name, func(t *testing.T) {
			buf := aligned8(len(enc) + tc.shift)
			r := buf[tc.shift:]
			copy(r, enc)
			got, err := decodeCodesSection(r, true)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("decoded %x, want %x", got, want)
			}
			if alias := pointsInto(got, r); alias != tc.alias {
				t.Fatalf("aliases the input = %v, want %v", alias, tc.alias)
			}
			if tc.alias && cap(got) != len(got) {
				t.Fatalf("cap %d > len %d: an append would write into the file", cap(got), len(got))
			}
		})
	}
	for _, bad := range [][]byte{nil, {}, aligned8(31), aligned8(33)} {
		if _, ok := codesInPlace(bad); ok {
			t.Errorf("%d bytes used in place", len(bad))
		}
	}
	if _, err := decodeCodesSection(aligned8(33), true); err == nil {
		t.Error("33 bytes decoded as codes")
	}
}

// TestDecodeAliasesCodes: DecodeWith InPlace of a file at an aligned
// address keeps its codes in the file's bytes, at a misaligned one copies
// them; plain Decode always copies and keeps no reference to the file; the
// assets are equal, and SHA256 is the file's hash every way.
func TestDecodeAliasesCodes(t *testing.T) {
	src := genAsset(t, rand.New(rand.NewPCG(7, 7)), genOpts{n: 500, lists: 2, tem: true, neighbors: 8})
	file, err := Marshal(src)
	if err != nil {
		t.Fatal(err)
	}
	hash := sha256.Sum256(file)
	for _, tc := range []struct {
		shift   int
		inPlace bool
	}{{0, true}, {1, true}, {3, true}, {0, false}} {
		shift := tc.shift
		buf := aligned8(len(file) + shift)
		b := buf[shift:]
		copy(b, file)
		a, err := DecodeWith(b, DecodeOptions{InPlace: tc.inPlace})
		if err != nil {
			t.Fatalf("shift %d: %v", shift, err)
		}
		if want := tc.inPlace && shift == 0 && littleEndian; pointsInto(a.Codes, b) != want {
			t.Errorf("shift %d, in place %v: codes alias the file = %v, want %v", shift, tc.inPlace, !want, want)
		}
		if !tc.inPlace && a.src != nil {
			t.Errorf("shift %d: Decode without InPlace keeps the file", shift)
		}
		if !slices.Equal(a.Codes, src.Codes) || !slices.Equal(a.WordList(), src.WordList()) {
			t.Errorf("shift %d: decoded asset differs from the one written", shift)
		}
		if a.SHA256() != hash {
			t.Errorf("shift %d: SHA256 %x, want the file's %x", shift, a.SHA256(), hash)
		}
	}
}
