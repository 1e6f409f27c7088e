package pipeline

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
)

// The coders of what crosses the pipeline's shuffles (registered in
// register.go): grants (the per-user combine's accumulators, every ref a
// user's records left), slotBatch (granted records or a segment's
// marker, to the re-read), segmentBits (a segment of a file re-read
// sequentially) and lineBatch (budget and state lines, to their writers). Beam's
// default coder for a struct works by reflection on every element and
// field; these are a few appends each: strings length-prefixed, integers
// as varints, a charge as its float64 bits (NaN included, bit for bit)
// or, when the element already holds it, as its index (floatIndex); in
// grants and slot batches a ref's Line and Offset as the difference from
// the previous one's.
// A decoder refuses bytes cut short or with more after the element: the
// run fails (errShuffleBytes), it never reads a wrong element.

// errShuffleBytes: an element's bytes do not decode (a runner's fault,
// or a coder's).
var errShuffleBytes = errors.New("wordveil-beam: malformed element bytes in a shuffle")

// maxCosts is how many distinct float64s (charges) an element refers to
// by index (the rest are written out).
const maxCosts = 32

// floatIndex writes an element's float64s, in order: one among the
// element's first maxCosts distinct ones (by bits, NaN's included) is its
// index plus one, any other 0 and its 8 bytes; the decoder rebuilds the
// same index as it reads (decoder.indexedFloat).
type floatIndex struct {
	bits [maxCosts]uint64
	n    int
}

func (x *floatIndex) append(buf []byte, f float64) []byte {
	bits := math.Float64bits(f)
	if k := slices.Index(x.bits[:x.n], bits); k >= 0 {
		return binary.AppendUvarint(buf, uint64(k)+1)
	}
	x.add(bits)
	buf = append(buf, 0)
	return binary.LittleEndian.AppendUint64(buf, bits)
}

func (x *floatIndex) add(bits uint64) {
	if x.n < maxCosts {
		x.bits[x.n] = bits
		x.n++
	}
}

func encodeGrants(g grants) []byte {
	buf := make([]byte, 0, 3*binary.MaxVarintLen64+len(g.Refs)*32)
	buf = binary.AppendUvarint(buf, uint64(g.Records))
	buf = binary.AppendUvarint(buf, uint64(g.Sorted))
	buf = binary.AppendUvarint(buf, uint64(len(g.Refs)))
	prev := ref{}
	var costs floatIndex
	for i := range g.Refs {
		r := &g.Refs[i]
		// The refs are mostly sorted by Source: a Source equal to the
		// previous ref's is a 0, any other its length plus one and its
		// bytes. Line and Offset are the difference from the previous
		// ref's (a few bytes where a user's lines are near each other).
		if i > 0 && r.Source == prev.Source {
			buf = append(buf, 0)
		} else {
			buf = binary.AppendUvarint(buf, uint64(len(r.Source))+1)
			buf = append(buf, r.Source...)
		}
		buf = binary.AppendVarint(buf, r.Line-prev.Line)
		buf = binary.AppendVarint(buf, r.Offset-prev.Offset)
		buf = append(buf, r.Sum[:]...)
		buf = binary.AppendVarint(buf, int64(r.Index-prev.Index))
		buf = binary.AppendVarint(buf, int64(r.Words))
		buf = costs.append(buf, r.Cost) // a user's records have a few distinct charges
		prev = *r
	}
	return buf
}

func decodeGrants(p []byte) (grants, error) {
	d := decoder{p: p}
	g := grants{Records: d.int(), Sorted: d.int()}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.p)) { // every ref takes at least a byte
		return grants{}, errShuffleBytes
	}
	g.Refs = make([]ref, n)
	prev := ref{}
	var costs floatIndex
	for i := range g.Refs {
		r := &g.Refs[i]
		r.Source = d.sameOr(i > 0, prev.Source)
		r.Line = prev.Line + d.varint()
		r.Offset = prev.Offset + d.varint()
		r.Sum = d.sum()
		r.Index = prev.Index + int(d.varint())
		r.Words = int(d.varint())
		r.Cost = d.indexedFloat(&costs)
		if d.err != nil {
			return grants{}, errShuffleBytes
		}
		prev = *r
	}
	if g.Sorted > len(g.Refs) {
		d.fail()
	}
	return g, d.end()
}

func encodeSlotBatch(b slotBatch) []byte {
	n := binary.MaxVarintLen64
	for i := range b.Slots {
		s := &b.Slots[i]
		n += 9*binary.MaxVarintLen64 + len(s.User) + len(s.Source) + len(s.Sum)
	}
	buf := make([]byte, 0, n)
	buf = binary.AppendUvarint(buf, uint64(len(b.Slots)))
	var prev slot
	var costs floatIndex
	for i := range b.Slots {
		buf = appendSlot(buf, &b.Slots[i], i > 0, &prev, &costs)
		prev = b.Slots[i]
	}
	return buf
}

func decodeSlotBatch(p []byte) (slotBatch, error) {
	d := decoder{p: p}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.p)) { // every slot takes at least a byte
		return slotBatch{}, errShuffleBytes
	}
	b := slotBatch{Slots: make([]slot, n)}
	var prev slot
	var costs floatIndex
	for i := range b.Slots {
		b.Slots[i] = d.slot(i > 0, &prev, &costs)
		prev = b.Slots[i]
		if d.err != nil {
			return slotBatch{}, errShuffleBytes
		}
	}
	return b, d.end()
}

// appendSlot appends s, after prev when havePrev (the batch's previous
// slot: a batch is one user's granted records of a segment, in order):
// its User as 0 when prev's, else as its length plus one and its bytes;
// its Line, Offset and Index as the difference from prev's; its charge by
// costs; Marker and Seq as the bits of one byte.
func appendSlot(buf []byte, s *slot, havePrev bool, prev *slot, costs *floatIndex) []byte {
	buf = appendSameOr(buf, s.User, havePrev && s.User == prev.User)
	buf = appendString(buf, s.Source)
	buf = binary.AppendVarint(buf, s.Line-prev.Line)
	buf = binary.AppendVarint(buf, s.Offset-prev.Offset)
	buf = append(buf, s.Sum[:]...)
	buf = binary.AppendVarint(buf, int64(s.Index-prev.Index))
	buf = binary.AppendVarint(buf, int64(s.Words))
	buf = costs.append(buf, s.Cost)
	flags := byte(0) // 1: Marker; 2: Seq
	if s.Marker {
		flags |= 1
	}
	if s.Seq {
		flags |= 2
	}
	buf = append(buf, flags)
	buf = binary.AppendVarint(buf, s.End)
	return binary.AppendVarint(buf, int64(s.Records))
}

// slot reads what appendSlot wrote after prev (the zero slot when there
// is none: havePrev false).
func (d *decoder) slot(havePrev bool, prev *slot, costs *floatIndex) slot {
	var s slot
	s.User = d.sameOr(havePrev, prev.User)
	s.Source = d.string()
	s.Line = prev.Line + d.varint()
	s.Offset = prev.Offset + d.varint()
	s.Sum = d.sum()
	s.Index = prev.Index + int(d.varint())
	s.Words = int(d.varint())
	s.Cost = d.indexedFloat(costs)
	switch f := d.byte(); f {
	case 0, 1, 2, 3:
		s.Marker, s.Seq = f&1 != 0, f&2 != 0
	default:
		d.fail()
	}
	s.End = d.varint()
	s.Records = int(d.varint())
	return s
}

// sameOr reads a string written as 0 for prev (when havePrev) or as its
// length plus one and its bytes.
func (d *decoder) sameOr(havePrev bool, prev string) string {
	switch k := d.uvarint(); {
	case d.err != nil:
		return ""
	case k == 0 && havePrev:
		return prev
	case k == 0 || k-1 > uint64(len(d.p)):
		d.fail()
		return ""
	default:
		s := string(d.p[:k-1])
		d.p = d.p[k-1:]
		return s
	}
}

// encodeSegmentBits writes a sequential segment (sequential.go): its
// marker's numbers, its two digests and its bits.
func encodeSegmentBits(b segmentBits) []byte {
	buf := make([]byte, 0, 5*binary.MaxVarintLen64+2*len(b.Digest)+len(b.Bits))
	buf = binary.AppendVarint(buf, b.Line)
	buf = binary.AppendVarint(buf, b.Offset)
	buf = binary.AppendVarint(buf, b.End)
	buf = binary.AppendVarint(buf, int64(b.Records))
	buf = append(buf, b.Digest[:]...)
	buf = append(buf, b.Grants[:]...)
	buf = binary.AppendUvarint(buf, uint64(len(b.Bits)))
	return append(buf, b.Bits...)
}

func decodeSegmentBits(p []byte) (segmentBits, error) {
	d := decoder{p: p}
	b := segmentBits{Line: d.varint(), Offset: d.varint(), End: d.varint(), Records: int(d.varint())}
	b.Digest, b.Grants = d.sum(), d.sum()
	if n := d.uvarint(); d.err == nil && n <= uint64(len(d.p)) {
		b.Bits = slices.Clone(d.p[:n])
		d.p = d.p[n:]
	} else {
		d.fail()
	}
	if err := d.end(); err != nil {
		return segmentBits{}, err
	}
	return b, nil
}

func encodeLineBatch(b lineBatch) []byte {
	n := binary.MaxVarintLen64
	for i := range b.Lines {
		n += 2*binary.MaxVarintLen64 + len(b.Lines[i].User) + len(b.Lines[i].JSON)
	}
	buf := make([]byte, 0, n)
	buf = binary.AppendUvarint(buf, uint64(len(b.Lines)))
	for i := range b.Lines {
		buf = appendString(buf, b.Lines[i].User)
		buf = appendString(buf, b.Lines[i].JSON)
	}
	return buf
}

func decodeLineBatch(p []byte) (lineBatch, error) {
	d := decoder{p: p}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.p)) { // every line takes at least a byte
		return lineBatch{}, errShuffleBytes
	}
	b := lineBatch{Lines: make([]outLine, n)}
	for i := range b.Lines {
		b.Lines[i] = outLine{User: d.string(), JSON: d.string()}
		if d.err != nil {
			return lineBatch{}, errShuffleBytes
		}
	}
	return b, d.end()
}

// appendSameOr appends s as decoder.sameOr reads it: 0 when same (s is
// the previous element's), else its length plus one and its bytes.
func appendSameOr(buf []byte, s string, same bool) []byte {
	if same {
		return append(buf, 0)
	}
	buf = binary.AppendUvarint(buf, uint64(len(s))+1)
	return append(buf, s...)
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// decoder reads what the encoders wrote; its first error sticks, and
// every read after it returns a zero value.
type decoder struct {
	p   []byte
	err error
}

func (d *decoder) fail() {
	d.err, d.p = errShuffleBytes, nil
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.p)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.p = d.p[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.p)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.p = d.p[n:]
	return v
}

// int reads a count: a uvarint that fits an int.
func (d *decoder) int() int {
	v := d.uvarint()
	if v > math.MaxInt32 {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *decoder) string() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.p)) {
		d.fail()
		return ""
	}
	s := string(d.p[:n])
	d.p = d.p[n:]
	return s
}

func (d *decoder) float() float64 {
	if len(d.p) < 8 {
		d.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.p))
	d.p = d.p[8:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.p) < 1 {
		d.fail()
		return 0
	}
	b := d.p[0]
	d.p = d.p[1:]
	return b
}

// end is the decoder's error, or errShuffleBytes if bytes are left over.
func (d *decoder) end() error {
	if d.err == nil && len(d.p) != 0 {
		d.fail()
	}
	return d.err
}

// sum reads a lineSum's 16 bytes.
func (d *decoder) sum() lineChecksum {
	var s lineChecksum
	if d.err != nil {
		return s
	}
	if len(d.p) < len(s) {
		d.fail()
		return s
	}
	copy(s[:], d.p)
	d.p = d.p[len(s):]
	return s
}

// indexedFloat reads a float64 floatIndex.append wrote, with x the
// element's index so far.
func (d *decoder) indexedFloat(x *floatIndex) float64 {
	switch k := d.uvarint(); {
	case d.err != nil:
		return 0
	case k == 0:
		f := d.float()
		x.add(math.Float64bits(f))
		return f
	case k <= uint64(x.n):
		return math.Float64frombits(x.bits[k-1])
	default:
		d.fail()
		return 0
	}
}
