package bitpack

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func randomFields(r *rand.Rand, n int, width uint) []uint32 {
	vals := make([]uint32, n)
	for i := range vals {
		vals[i] = uint32(r.Uint64() & mask(width))
	}
	return vals
}

func TestWidth(t *testing.T) {
	for _, tc := range []struct {
		max  uint64
		want uint
	}{{0, 0}, {1, 1}, {2, 2}, {3, 2}, {4, 3}, {49999, 16}, {65535, 16}, {65536, 17}, {1<<32 - 1, 32}} {
		if got := Width(tc.max); got != tc.want {
			t.Errorf("Width(%d) = %d, want %d", tc.max, got, tc.want)
		}
	}
}

func TestPackedLen(t *testing.T) {
	for _, tc := range []struct {
		n     int
		width uint
		want  int
	}{{0, 5, 0}, {1, 0, 0}, {1, 1, 1}, {8, 1, 1}, {9, 1, 2}, {3, 5, 2}, {50000, 16, 100000}, {1, 33, -1}, {-1, 3, -1}, {math.MaxInt / 2, 32, -1}} {
		if got := PackedLen(tc.n, tc.width); got != tc.want {
			t.Errorf("PackedLen(%d, %d) = %d, want %d", tc.n, tc.width, got, tc.want)
		}
	}
}

// TestRoundTrip checks Pack against the three decoders (Unpack, Reader,
// Array) for every width and for lengths around the fast-path boundary.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for width := uint(0); width <= MaxWidth; width++ {
		for _, n := range []int{0, 1, 2, 7, 8, 9, 63, 64, 65, 1000} {
			vals := randomFields(r, n, width)
			packed := Pack(nil, vals, width)
			if len(packed) != PackedLen(n, width) {
				t.Fatalf("w=%d n=%d: packed %d bytes, want %d", width, n, len(packed), PackedLen(n, width))
			}
			got := make([]uint32, n)
			if err := Unpack(got, packed, width); err != nil {
				t.Fatalf("w=%d n=%d: Unpack: %v", width, n, err)
			}
			wide := make([]uint64, n)
			for i, v := range vals {
				wide[i] = uint64(v)
			}
			arr := NewArray(wide, width)
			bld := NewBuilder(n, width)
			for _, i := range r.Perm(n) {
				bld.Set(i, wide[i])
			}
			built := bld.Array()
			for i, v := range vals {
				if got[i] != v {
					t.Fatalf("w=%d n=%d: Unpack[%d] = %d, want %d", width, n, i, got[i], v)
				}
				if x := readField(packed, uint64(i)*uint64(width), width); uint32(x) != v {
					t.Fatalf("w=%d n=%d: field %d = %d, want %d", width, n, i, x, v)
				}
				if arr.Get(i) != uint64(v) || built.Get(i) != uint64(v) {
					t.Fatalf("w=%d n=%d: Get(%d) = %d/%d, want %d", width, n, i, arr.Get(i), built.Get(i), v)
				}
			}
			if err := checkPadding(packed, uint64(n)*uint64(width)); err != nil {
				t.Fatalf("w=%d n=%d: padding: %v", width, n, err)
			}
			if arr.Len() != n || arr.Width() != width {
				t.Fatalf("Len/Width = %d/%d", arr.Len(), arr.Width())
			}
		}
	}
}

// TestWideArrays covers Array widths above the stream limit, up to 57 bits,
// through all three ways of building one.
func TestWideArrays(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for width := uint(0); width <= MaxArrayWidth; width++ {
		for _, n := range []int{0, 1, 5, 64, 333} {
			vals := make([]uint64, n)
			for i := range vals {
				vals[i] = r.Uint64() & mask(width)
			}
			arr := NewArray(vals, width)
			bld := NewBuilder(n, width)
			for _, i := range r.Perm(n) {
				bld.Set(i, vals[i])
			}
			built := bld.Array()
			data, w, m := arr.Raw()
			for i, v := range vals {
				bit := uint64(i) * uint64(w)
				raw := binary.LittleEndian.Uint64(data[bit>>3:]) >> (bit & 7) & m
				if arr.Get(i) != v || built.Get(i) != v || raw != v {
					t.Fatalf("w=%d n=%d i=%d: got %d/%d/%d, want %d", width, n, i, arr.Get(i), built.Get(i), raw, v)
				}
			}
			if !bytes.Equal(data, built.b) {
				t.Fatalf("w=%d n=%d: Appender and Builder layouts differ", width, n)
			}
			if arr.SizeBytes() < arrayLen(n, width)+slack {
				t.Fatalf("w=%d n=%d: %d bytes", width, n, arr.SizeBytes())
			}
		}
	}
}

// readField reads one field with the byte-wise path, as an independent
// check of the packers.
func readField(b []byte, bit uint64, width uint) uint64 { return loadTail(b, bit) & mask(width) }

func TestMixedWidths(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	type field struct {
		v     uint64
		width uint
	}
	fields := make([]field, 5000)
	w := NewWriter(nil)
	for i := range fields {
		width := uint(r.IntN(MaxWidth + 1))
		fields[i] = field{r.Uint64() & mask(width), width}
		w.Write(fields[i].v, width)
	}
	total := w.BitLen()
	b := w.Bytes()
	if uint64(len(b)) != (total+7)/8 || w.BitLen() != uint64(len(b))*8 {
		t.Fatalf("stream %d bytes for %d bits, BitLen after Bytes %d", len(b), total, w.BitLen())
	}
	var pos uint64
	for i, f := range fields {
		if v := readField(b, pos, f.width); v != f.v {
			t.Fatalf("field %d: got %d, want %d", i, v, f.v)
		}
		pos += uint64(f.width)
	}
	if err := checkPadding(b, pos); err != nil {
		t.Fatal(err)
	}
	// Writing after Bytes continues at the next byte boundary.
	w.Write(5, 3)
	if b2 := w.Bytes(); len(b2) != len(b)+1 || b2[len(b)] != 5 {
		t.Fatalf("write after Bytes: %x", b2[len(b):])
	}
}

func TestUnpackErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		src   []byte
		n     int
		width uint
		want  error
	}{
		{"short", []byte{0xff}, 3, 5, ErrShort},
		{"excess byte", []byte{0x01, 0x00}, 1, 3, ErrPadding},
		{"dirty padding", []byte{0x09}, 1, 3, ErrPadding},
		{"dirty padding fast path", append(make([]byte, 9), 0x80), 5, 15, ErrPadding},
		{"width", []byte{0}, 1, 33, ErrWidth},
		{"zero width with bytes", []byte{0}, 4, 0, ErrPadding},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Unpack(make([]uint32, tc.n), tc.src, tc.width)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Unpack = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"misfit":        func() { Pack(nil, []uint32{8}, 3) },
		"wide":          func() { NewWriter(nil).Write(1, 33) },
		"get range":     func() { a := NewArray([]uint64{1}, 1); a.Get(1) },
		"array misfit":  func() { NewArray([]uint64{4}, 2) },
		"array width":   func() { NewArray(nil, MaxArrayWidth+1) },
		"appender full": func() { a := NewAppender(1, 3); a.Append(1); a.Append(1) },
		"set range":     func() { NewBuilder(1, 1).Set(-1, 0) },
		"set misfit":    func() { NewBuilder(1, 1).Set(0, 2) },
		"builder width": func() { NewBuilder(1, MaxArrayWidth+1) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			f()
		})
	}
}

// FuzzUnpack feeds arbitrary streams to the decoders: they must never panic,
// must agree with each other, and any stream Unpack accepts must be the
// canonical packing of what it decoded.
func FuzzUnpack(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint16(0))
	f.Add([]byte{0xff, 0x01}, uint8(3), uint16(3))
	f.Add(Pack(nil, []uint32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 4), uint8(4), uint16(10))
	f.Add(Pack(nil, []uint32{1 << 31, 5, 1<<32 - 1}, 32), uint8(32), uint16(3))
	f.Fuzz(func(t *testing.T, src []byte, width uint8, n uint16) {
		w := uint(width)
		dst := make([]uint32, n)
		err := Unpack(dst, src, w)
		// Independent check: the byte-wise reader accepts exactly when the
		// stream has the right length and zero padding.
		want := w <= MaxWidth && len(src) == PackedLen(int(n), w) && checkPadding(src, uint64(n)*uint64(w)) == nil
		if (err == nil) != want {
			t.Fatalf("Unpack err %v, independent check says ok=%v", err, want)
		}
		if err != nil {
			return
		}
		for i, v := range dst {
			if x := readField(src, uint64(i)*uint64(w), w); uint32(x) != v {
				t.Fatalf("field %d: Unpack %d, byte-wise %d", i, v, x)
			}
		}
		if again := Pack(nil, dst, w); !bytes.Equal(again, src) {
			t.Fatalf("accepted non-canonical stream %x, canonical %x", src, again)
		}
		wide := make([]uint64, len(dst))
		for i, v := range dst {
			wide[i] = uint64(v)
		}
		arr := NewArray(wide, w)
		for i, v := range dst {
			if arr.Get(i) != uint64(v) {
				t.Fatalf("Array.Get(%d) = %d, want %d", i, arr.Get(i), v)
			}
		}
	})
}
