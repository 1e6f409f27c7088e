package bitpack

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestViewRoundTrip: an Array's Bytes followed by Slack zero bytes is a
// stream View reads where it lies (no copy), field for field, for every
// width View accepts and lengths around the byte and word boundaries.
func TestViewRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for width := uint(0); width <= MaxWidth; width++ {
		for _, n := range []int{0, 1, 2, 7, 8, 9, 63, 64, 65, 300} {
			vals := randomFields(r, n, width)
			wide := make([]uint64, n)
			for i, v := range vals {
				wide[i] = uint64(v)
			}
			a := NewArray(wide, width)
			packed := a.Bytes()
			if !bytes.Equal(packed, Pack(nil, vals, width)) {
				t.Fatalf("w=%d n=%d: Array.Bytes differs from Pack", width, n)
			}
			src := append(bytes.Clone(packed), make([]byte, Slack)...)
			v, err := View(src, n, width)
			if err != nil {
				t.Fatalf("w=%d n=%d: View: %v", width, n, err)
			}
			if v.Len() != n || v.Width() != width {
				t.Fatalf("w=%d n=%d: View has %d fields of %d bits", width, n, v.Len(), v.Width())
			}
			for i, want := range vals {
				if got := v.Get(i); got != uint64(want) {
					t.Fatalf("w=%d n=%d: Get(%d) = %d, want %d", width, n, i, got, want)
				}
			}
			data, _, _ := v.Raw()
			if unsafe.SliceData(data) != unsafe.SliceData(src) || cap(data) != len(src) {
				t.Fatalf("w=%d n=%d: View copied its input or can grow into what follows it", width, n)
			}
			if !bytes.Equal(v.Bytes(), packed) {
				t.Fatalf("w=%d n=%d: View's Bytes differ from the packed fields", width, n)
			}
		}
	}
	var zero Array
	if zero.Bytes() != nil {
		t.Fatal("zero Array has bytes")
	}
}

func TestViewErrors(t *testing.T) {
	good := append(Pack(nil, []uint32{1, 2, 3, 4, 5}, 3), make([]byte, Slack)...) // 15 bits: one padding bit
	mod := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, tc := range []struct {
		name  string
		src   []byte
		n     int
		width uint
		want  error
	}{
		{"valid", good, 5, 3, nil},
		{"no slack", good[:len(good)-Slack], 5, 3, ErrPadding},
		{"slack short a byte", good[:len(good)-1], 5, 3, ErrPadding},
		{"extra byte", append(bytes.Clone(good), 0), 5, 3, ErrPadding},
		{"non-zero first slack byte", mod(func(b []byte) []byte { b[2] = 1; return b }), 5, 3, ErrPadding},
		{"non-zero last slack byte", mod(func(b []byte) []byte { b[len(b)-1] = 0x80; return b }), 5, 3, ErrPadding},
		{"non-zero padding bit", mod(func(b []byte) []byte { b[1] |= 0x80; return b }), 5, 3, ErrPadding},
		{"fewer fields than the bytes", good, 4, 3, ErrPadding},
		{"more fields than the bytes", good, 6, 3, ErrPadding},
		{"width above MaxWidth", good, 1, MaxWidth + 1, ErrWidth},
		{"negative length", good, -1, 3, ErrWidth},
		{"empty, zero fields", make([]byte, Slack), 0, 17, nil},
		{"empty input", nil, 0, 3, ErrPadding},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := View(tc.src, tc.n, tc.width)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("View = %v", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("View = %v, want %v", err, tc.want)
			}
		})
	}
}

// TestCheckStreamField: CheckStream accepts exactly the streams Unpack
// accepts, and Field reads what Unpack would, never past the stream's end.
func TestCheckStreamField(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for width := uint(0); width <= MaxWidth; width++ {
		for _, n := range []int{0, 1, 3, 8, 9, 100} {
			vals := randomFields(r, n, width)
			src := Pack(nil, vals, width)
			if err := CheckStream(src, n, width); err != nil {
				t.Fatalf("w=%d n=%d: CheckStream: %v", width, n, err)
			}
			// An exact-length copy, so a read past the end would panic.
			exact := bytes.Clone(src)[:len(src):len(src)]
			for i, want := range vals {
				if got := Field(exact, i, width); got != uint64(want) {
					t.Fatalf("w=%d n=%d: Field(%d) = %d, want %d", width, n, i, got, want)
				}
			}
			if n > 0 && width > 0 {
				if err := CheckStream(src[:len(src)-1], n, width); !errors.Is(err, ErrShort) {
					t.Fatalf("w=%d n=%d: short stream: %v", width, n, err)
				}
			}
			if err := CheckStream(append(bytes.Clone(src), 0), n, width); !errors.Is(err, ErrPadding) {
				t.Fatalf("w=%d n=%d: excess byte: %v", width, n, err)
			}
			if bits := uint64(n) * uint64(width); bits%8 != 0 {
				dirty := bytes.Clone(src)
				dirty[len(dirty)-1] |= 0x80
				if err := CheckStream(dirty, n, width); !errors.Is(err, ErrPadding) {
					t.Fatalf("w=%d n=%d: dirty padding: %v", width, n, err)
				}
			}
		}
	}
	if err := CheckStream(nil, 1, MaxWidth+1); !errors.Is(err, ErrWidth) {
		t.Fatalf("width 33: %v", err)
	}
	if err := CheckStream(nil, -1, 3); !errors.Is(err, ErrShort) {
		t.Fatalf("negative length: %v", err)
	}
	// Past the end a field reads as zero instead of panicking.
	if got := Field([]byte{0xff}, 5, 8); got != 0 {
		t.Fatalf("Field past the end = %d", got)
	}
	if got := Field(nil, 0, 3); got != 0 {
		t.Fatalf("Field of nothing = %d", got)
	}
}
