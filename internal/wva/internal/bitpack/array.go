package bitpack

import (
	"encoding/binary"
	"fmt"
)

// MaxArrayWidth is the widest Array field, in bits: a 57-bit field shifted
// by at most 7 bits still fits in the one 64-bit load that reads it.
const MaxArrayWidth = 57

// slack is the number of zero bytes kept after an Array's fields so that
// any field can be read with one 8-byte load at its first byte.
const slack = 8

// arrayLen returns the packed size in bytes of n fields of the given
// width, or -1 if the width is above MaxArrayWidth or the size overflows.
func arrayLen(n int, width uint) int {
	if n < 0 || width > MaxArrayWidth || uint64(n) > (1<<62)/MaxArrayWidth {
		return -1
	}
	return int((uint64(n)*uint64(width) + 7) / 8)
}

// Array is an immutable in-memory array of fixed-width fields (up to
// MaxArrayWidth bits) with O(1) random access. Its zero value is empty.
type Array struct {
	b     []byte // packed fields, then slack zero bytes
	n     int
	width uint
	mask  uint64
}

// NewArray packs vals into an Array of the given width. It panics if the
// width is above MaxArrayWidth or a value does not fit.
func NewArray(vals []uint64, width uint) Array {
	ap := NewAppender(len(vals), width)
	for _, v := range vals {
		if v>>width != 0 {
			panic("bitpack: value does not fit the width")
		}
		ap.Append(v)
	}
	return ap.Array()
}

// Len returns the number of fields.
func (a *Array) Len() int { return a.n }

// Width returns the field width in bits.
func (a *Array) Width() uint { return a.width }

// SizeBytes returns the memory held by the array's data.
func (a *Array) SizeBytes() int { return cap(a.b) }

// Get returns field i. It panics if i is out of range.
func (a *Array) Get(i int) uint64 {
	if uint(i) >= uint(a.n) {
		panic("bitpack: Array index out of range")
	}
	bit := uint64(i) * uint64(a.width)
	return binary.LittleEndian.Uint64(a.b[bit>>3:]) >> (bit & 7) & a.mask
}

// Raw returns the array's storage for hot loops that read many fields:
// field i is binary.LittleEndian.Uint64(data[bit>>3:]) >> (bit&7) & mask
// with bit = i·width, and data has 8 bytes of slack after the last field
// so the load never runs off the end. data must not be modified.
func (a *Array) Raw() (data []byte, width uint, mask uint64) { return a.b, a.width, a.mask }

// Builder fills an Array field by field in any order, for callers that
// produce values out of order (the TEM loader scatters entries).
type Builder struct {
	a Array
}

// NewBuilder returns a Builder for n zero fields of the given width. It
// panics if the width is above MaxArrayWidth or the size overflows.
func NewBuilder(n int, width uint) *Builder {
	size := arrayLen(n, width)
	if size < 0 {
		panic("bitpack: bad array width or size")
	}
	return &Builder{a: Array{b: make([]byte, size+slack), n: n, width: width, mask: mask(width)}}
}

// Set stores v in field i, which must not have been set before: fields are
// ORed in, which saves clearing the field first. It panics if i is out of
// range or v does not fit.
func (b *Builder) Set(i int, v uint64) {
	a := &b.a
	if uint(i) >= uint(a.n) || v&^a.mask != 0 {
		panic("bitpack: Builder index out of range or value too wide")
	}
	bit := uint64(i) * uint64(a.width)
	p := a.b[bit>>3:]
	binary.LittleEndian.PutUint64(p, binary.LittleEndian.Uint64(p)|v<<(bit&7))
}

// Array returns the built array. The Builder must not be used afterwards.
func (b *Builder) Array() Array { return b.a }

// Appender builds an Array by appending fields in order; it is the fast
// sequential packer (Append inlines and writes whole bytes with one 8-byte
// store).
type Appender struct {
	buf   []byte // len = bytes complete; cap covers the fields plus slack
	acc   uint64 // pending bits not yet complete bytes, fewer than 8
	nacc  uint
	n     int
	limit int
	width uint
}

// NewAppender returns an Appender for n fields of the given width. It
// panics if the width is above MaxArrayWidth or the size overflows.
func NewAppender(n int, width uint) *Appender {
	size := arrayLen(n, width)
	if size < 0 {
		panic("bitpack: bad array width or size")
	}
	return &Appender{buf: make([]byte, 0, size+slack), limit: n, width: width}
}

// Append adds v as the next field. It panics past the n fields the
// Appender was made for. The caller must ensure v fits in the width:
// Append does not mask it, so a misfit corrupts the next field.
func (a *Appender) Append(v uint64) {
	if a.n >= a.limit {
		panic("bitpack: Appender full")
	}
	// Fewer than 8 bits are pending and the width is at most 57, so the
	// sum fits in 64 bits; store 8 bytes (the buffer's slack allows it)
	// and keep the incomplete byte's bits pending.
	acc := a.acc | v<<a.nacc
	nacc := a.nacc + a.width
	p := len(a.buf)
	binary.LittleEndian.PutUint64(a.buf[p:p+8], acc)
	a.buf = a.buf[:p+int(nacc>>3)]
	a.acc = acc >> (nacc &^ 7) // a shift by 64 yields 0
	a.nacc = nacc & 7
	a.n++
}

// Array returns the packed fields. The Appender must not be used afterwards.
func (a *Appender) Array() Array {
	b := a.buf
	if a.nacc > 0 {
		b = append(b, byte(a.acc))
	}
	b = b[:len(b)+slack]
	clear(b[len(b)-slack:])
	return Array{b: b, n: a.n, width: a.width, mask: mask(a.width)}
}

// Slack is the number of zero bytes an Array's packed fields must be
// followed by (see View).
const Slack = slack

// View returns the Array whose packed fields are b's first bytes, where
// they lie (no copy): b must hold exactly the fields' bytes, with zero
// padding bits in the last one, followed by Slack zero bytes, which let
// every field be read with one 8-byte load. b must not change while the
// Array is in use. It returns an error wrapping ErrPadding (wrong length,
// non-zero padding or slack) or ErrWidth.
func View(b []byte, n int, width uint) (Array, error) {
	size := arrayLen(n, width)
	switch {
	case size < 0 || width > MaxWidth:
		return Array{}, ErrWidth
	case len(b) != size+slack:
		return Array{}, fmt.Errorf("%w: %d bytes, %d fields of %d bits and %d bytes of slack need %d", ErrPadding, len(b), n, width, slack, size+slack)
	}
	if err := checkPadding(b[:size], uint64(n)*uint64(width)); err != nil {
		return Array{}, err
	}
	for _, c := range b[size:] {
		if c != 0 {
			return Array{}, fmt.Errorf("%w: non-zero slack byte", ErrPadding)
		}
	}
	return Array{b: b[: size+slack : size+slack], n: n, width: width, mask: mask(width)}, nil
}

// Bytes returns the packed fields without the slack (for writing them):
// the layout View reads, less its Slack zero bytes.
func (a *Array) Bytes() []byte {
	if len(a.b) < slack {
		return nil // the zero Array
	}
	return a.b[:len(a.b)-slack]
}
