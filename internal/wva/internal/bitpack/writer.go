package bitpack

import (
	"encoding/binary"
	"fmt"
)

// Writer appends fields of varying widths to a byte slice. The zero value
// is an empty stream.
type Writer struct {
	buf  []byte
	acc  uint64 // pending bits, least significant first
	nacc uint   // number of pending bits, < 32 after every Write
	bits uint64 // total bits written
}

// NewWriter returns a Writer that appends to dst.
func NewWriter(dst []byte) *Writer { return &Writer{buf: dst} }

// Write appends v in width bits. It panics if width > MaxWidth or v does not
// fit in width bits (see Pack).
func (w *Writer) Write(v uint64, width uint) {
	if width > MaxWidth || v>>width != 0 {
		badWrite(v, width)
	}
	// Fewer than 32 bits are pending and width ≤ 32, so the sum fits in
	// acc; flushing 4 bytes at a time keeps appends off the per-field path.
	w.acc |= v << w.nacc
	w.nacc += width
	w.bits += uint64(width)
	if w.nacc >= 32 {
		w.flush()
	}
}

func (w *Writer) flush() {
	w.buf = binary.LittleEndian.AppendUint32(w.buf, uint32(w.acc))
	w.acc >>= 32
	w.nacc -= 32
}

// badWrite is kept out of line so that Write stays small enough to inline.
//
//go:noinline
func badWrite(v uint64, width uint) {
	if width > MaxWidth {
		panic(fmt.Sprintf("bitpack: width %d above %d", width, MaxWidth))
	}
	panic(fmt.Sprintf("bitpack: value %d does not fit in %d bits", v, width))
}

// BitLen returns the number of bits written so far.
func (w *Writer) BitLen() uint64 { return w.bits }

// Bytes returns the stream, the last byte padded with zero bits. Writing
// after Bytes continues the stream at the next byte boundary.
func (w *Writer) Bytes() []byte {
	for w.nacc > 0 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		if w.nacc < 8 {
			w.bits += uint64(8 - w.nacc)
			w.nacc = 0
		} else {
			w.nacc -= 8
		}
	}
	return w.buf
}
