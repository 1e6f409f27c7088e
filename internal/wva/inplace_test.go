package wva

import (
	"strings"
	"testing"
	"unsafe"
)

// misaligned returns a copy of b at an address 1 past an 8-aligned one,
// where no uint32 array can be used in place.
func misaligned(b []byte) []byte {
	c := aligned8(len(b) + 1)[1:]
	copy(c, b)
	return c
}

// inside reports whether the n bytes at p lie within b.
func inside(p unsafe.Pointer, n int, b []byte) bool {
	if p == nil || len(b) == 0 {
		return false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	q := uintptr(p)
	return q >= lo && q+uintptr(n) <= lo+uintptr(len(b))
}

func u32sInside(s []uint32, b []byte) bool {
	return inside(unsafe.Pointer(unsafe.SliceData(s)), 4*len(s), b)
}

func bytesInside(s []byte, b []byte) bool {
	return inside(unsafe.Pointer(unsafe.SliceData(s)), len(s), b)
}

func stringInside(s string, b []byte) bool {
	return inside(unsafe.Pointer(unsafe.StringData(s)), len(s), b)
}

// aliases lists, for each table a decoded asset may use in place, whether
// it lies in b.
func aliases(a *Asset, b []byte) map[string]bool {
	m := map[string]bool{
		"vocabulary text":  stringInside(a.words.text, b),
		"vocabulary off":   u32sInside(a.words.off, b),
		"vocabulary order": u32sInside(a.words.sorted, b),
		"codes":            inside(unsafe.Pointer(unsafe.SliceData(a.Codes)), 32*len(a.Codes), b),
		"stand-in text":    stringInside(a.StandIns.text, b),
		"stand-in ids":     bytesInside(a.StandIns.ids.Bytes(), b),
		"CusText ids":      bytesInside(a.CusText.packed, b),
	}
	for i, l := range a.Lists {
		m["list order "+string(rune('0'+i))] = u32sInside(l.Order, b)
		m["list position "+string(rune('0'+i))] = u32sInside(l.Pos, b) // always built
	}
	return m
}

// TestDecodeInPlaceAliases: decoded with InPlace from an aligned buffer on
// a little-endian host, every table format 3 lays out for use in place
// (vocabulary text, offsets and sorted ids; list orders; stand-in text and
// ids; CusText's packed ids; the codes) lies in the input, and only the
// derived tables (list positions) are built; from a buffer 1 byte off
// alignment the uint32 arrays and the codes are copied and the byte
// tables still used in place. Without InPlace nothing lies in the input,
// and overwriting the input after decoding changes nothing; the same
// overwrite does change an in-place asset (the negative control for the
// method). Every way decodes to the same content.
func TestDecodeInPlaceAliases(t *testing.T) {
	if !littleEndian {
		t.Skip("big-endian host: the uint32 tables are always copied")
	}
	want := v21Asset(t)
	file := mustMarshal(t, want)
	for _, tc := range []struct {
		name    string
		b       []byte
		inPlace bool
		words   bool // uint32 arrays and codes in place
		bytes   bool // strings and byte tables in place
	}{
		{"in place, aligned", aligned8Copy(file), true, true, true},
		{"in place, misaligned", misaligned(file), true, false, true},
		{"copied, aligned", aligned8Copy(file), false, false, false},
		{"copied, misaligned", misaligned(file), false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := DecodeWith(tc.b, DecodeOptions{InPlace: tc.inPlace})
			if err != nil {
				t.Fatal(err)
			}
			for name, in := range aliases(a, tc.b) {
				want := tc.bytes
				switch name[:4] {
				case "voca":
					if name != "vocabulary text" {
						want = tc.words
					}
				case "code":
					want = tc.words
				case "list":
					want = tc.words && name[:10] == "list order"
				}
				if in != want {
					t.Errorf("%s lies in the input = %v, want %v", name, in, want)
				}
			}
			if tc.inPlace {
				checkEqual(t, want, a)
				checkSetsEqual(t, want.CusText, a.CusText)
				// The control: overwriting the input shows through an
				// in-place asset (which the InPlace caller promises never
				// to do).
				w0 := strings.Clone(a.Word(0))
				clear(tc.b)
				if a.Word(0) == w0 {
					t.Fatalf("overwriting the input left Word(0) = %q: the test cannot see aliasing", w0)
				}
				return
			}
			// Overwrite the input before anything is read, CusText's
			// first-use expansion included: the copy must not notice.
			for i := range tc.b {
				tc.b[i] = 0xa5
			}
			checkEqual(t, want, a)
			checkSetsEqual(t, want.CusText, a.CusText)
		})
	}
}
