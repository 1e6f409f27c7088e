package pipeline

import (
	"encoding/binary"
	"errors"
)

// lineBatch is what crosses the shuffle to the writers: some lines of one
// output file. privatizeFn emits one per shard per batch of records it
// privatizes, decideFn one per user's summary and state line, so that the
// runner handles a few large elements rather than one per record.
type lineBatch struct {
	Lines []outLine
}

// encodeLineBatch is lineBatch's coder (registered in register.go): a
// count, then each line's fields, strings length-prefixed, integers as
// varints. Beam's default coder for it works by reflection on every
// element; this one is a few appends.
func encodeLineBatch(b lineBatch) []byte {
	n := binary.MaxVarintLen64
	for i := range b.Lines {
		l := &b.Lines[i]
		n += 4*binary.MaxVarintLen64 + len(l.User) + len(l.Source) + len(l.JSON)
	}
	buf := make([]byte, 0, n)
	buf = binary.AppendUvarint(buf, uint64(len(b.Lines)))
	for i := range b.Lines {
		l := &b.Lines[i]
		buf = appendString(buf, l.User)
		buf = appendString(buf, l.Source)
		buf = binary.AppendVarint(buf, l.Line)
		buf = appendString(buf, l.JSON)
	}
	return buf
}

// errLineBatch: a lineBatch's bytes do not decode (a runner's fault, or
// this coder's): the run fails.
var errLineBatch = errors.New("wordveil-beam: a malformed line batch in a shuffle")

func decodeLineBatch(p []byte) (lineBatch, error) {
	d := decoder{p: p}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(p)) { // every line takes at least one byte
		return lineBatch{}, errLineBatch
	}
	b := lineBatch{Lines: make([]outLine, n)}
	for i := range b.Lines {
		l := &b.Lines[i]
		l.User = d.string()
		l.Source = d.string()
		l.Line = d.varint()
		l.JSON = d.string()
	}
	if d.err != nil || len(d.p) != 0 {
		return lineBatch{}, errLineBatch
	}
	return b, nil
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// decoder reads what the append functions wrote; its first error sticks.
type decoder struct {
	p   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.p)
	if n <= 0 {
		d.err, d.p = errLineBatch, nil
		return 0
	}
	d.p = d.p[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.p)
	if n <= 0 {
		d.err, d.p = errLineBatch, nil
		return 0
	}
	d.p = d.p[n:]
	return v
}

func (d *decoder) string() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.p)) {
		d.err, d.p = errLineBatch, nil
		return ""
	}
	s := string(d.p[:n])
	d.p = d.p[n:]
	return s
}
