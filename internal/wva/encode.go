package wva

import (
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/wordveil/wordveil/internal/hamming"
)

type outSection struct {
	kind   Kind
	flags  uint32
	stored []byte
	raw    uint64
}

// Marshal returns a encoded as a .wva file. It validates a first (see
// Validate) and returns an error wrapping ErrInvalid, and no bytes, if a is
// invalid. The output is deterministic: the same Asset gives the same
// bytes (for a given Go release; see compress). Marshal
// does not modify a.
func Marshal(a *Asset) ([]byte, error) {
	h, err := a.derivedHeader()
	if err != nil {
		return nil, err
	}
	n := a.Len()
	secs := []outSection{
		{kind: kindVocab, stored: encodeVocab(&a.words)},
		{kind: kindCodes, stored: hamming.AppendBytes(make([]byte, 0, n*hamming.CodeSize), a.Codes)},
	}
	if len(a.Lists) > 0 {
		secs = append(secs, outSection{kind: kindLists, stored: encodeLists(a.Lists, n)})
	}
	if a.TEM != nil {
		secs = append(secs, outSection{kind: kindTEMLists, stored: encodeTEM(a.TEM)})
	}
	if a.Floats != nil {
		secs = append(secs, outSection{kind: kindFloats, stored: encodeFloats(a.Floats)})
	}
	if a.CusText != nil {
		secs = append(secs, outSection{kind: kindCusText, stored: encodeCusText(a.CusText)})
	}
	if a.StandIns.Len() > 0 {
		secs = append(secs, outSection{kind: kindStandIns, stored: encodeStandIns(a.StandIns)})
	}
	for i := range secs {
		s := &secs[i]
		s.raw = uint64(len(s.stored))
		if s.kind.compressible(majorVersion) {
			if z := compress(s.stored); z != nil {
				s.stored, s.flags = z, flagDeflate
			}
		}
	}

	hj, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("wva: header: %w", err)
	}
	if len(hj) > maxHeaderLen {
		return nil, invalidf("header", "%d bytes of JSON, at most %d", len(hj), maxHeaderLen)
	}
	tableAt := uint64(preambleSize + len(hj))
	crcAt := tableAt + uint64(len(secs))*entrySize
	end := crcAt + 4
	total := end
	for _, s := range secs {
		total = alignUp(total) + uint64(len(s.stored))
	}
	b := make([]byte, crcAt, total)
	copy(b, magic)
	binary.LittleEndian.PutUint16(b[8:], majorVersion)
	binary.LittleEndian.PutUint16(b[10:], minorVersion)
	binary.LittleEndian.PutUint32(b[12:], uint32(len(hj)))
	binary.LittleEndian.PutUint32(b[16:], uint32(len(secs)))
	copy(b[preambleSize:], hj)
	for i, s := range secs {
		off := alignUp(end)
		e := b[tableAt+uint64(i)*entrySize:]
		binary.LittleEndian.PutUint32(e[0:], uint32(s.kind))
		binary.LittleEndian.PutUint32(e[4:], s.flags)
		binary.LittleEndian.PutUint64(e[8:], off)
		binary.LittleEndian.PutUint64(e[16:], uint64(len(s.stored)))
		binary.LittleEndian.PutUint64(e[24:], s.raw)
		binary.LittleEndian.PutUint32(e[32:], checksum(s.stored))
		end = off + uint64(len(s.stored))
	}
	b = binary.LittleEndian.AppendUint32(b, checksum(b))
	for _, s := range secs {
		b = append(b, make([]byte, alignUp(uint64(len(b)))-uint64(len(b)))...)
		b = append(b, s.stored...)
	}
	return b, nil
}
