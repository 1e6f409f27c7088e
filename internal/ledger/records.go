package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// logRead is the outcome of reading log records.
type logRead struct {
	end     int64 // offset just past the last whole, valid record
	torn    bool  // bytes after end are a torn append, to be cut off
	widened bool  // a record widened the retention window
}

// readRecords applies the records in r, which holds the file's bytes from
// offset off up to size, to st.
//
// Only the last append can be torn: every append is fsync'd under the
// exclusive lock before the next one starts, and the fsync of any append
// also makes every earlier write to the file durable. A record cut short
// by a crash therefore ends the file: the bytes after the last valid record
// are then either fewer than a slot, or a record whose whole slots have not
// all arrived, or (on file systems that extend a file before its data
// lands) zeros. Those are reported as torn, and dropping them hands nothing
// back: Charge and Bind return only after their fsync, so the call that
// wrote a torn record never returned and nothing was released for it. (A
// process that read it from the page cache before the crash only counted
// it as spent.) Any other invalid slot is damage, and an error wrapping
// ErrCorrupt: a whole slot that fails its checksum is never dropped, since
// it may be a charge that was acknowledged.
func readRecords(st *state, r io.Reader, off, size int64) (logRead, error) {
	var s [slotSize]byte
	res := logRead{end: off}
	for off < size {
		start := off
		if done, err := readSlot(st, r, &s, start, off, size, &res); done {
			return res, err
		}
		chain := sha256.New()
		chain.Write(st.head[:])
		chain.Write(s[:])
		off += slotSize
		switch s[0] {
		case 'C':
			c := charge{at: int64(binary.LittleEndian.Uint64(s[1:])), amount: math.Float64frombits(binary.LittleEndian.Uint64(s[9:]))}
			if err := validCharge(c, st.clock); err != nil {
				return res, err
			}
			if !zero(s[17:slotData]) {
				return res, fmt.Errorf("%w: charge record padding", ErrCorrupt)
			}
			st.apply(c)
			if st.life.v.Cmp(maxTotal) > 0 {
				return res, fmt.Errorf("%w: lifetime total out of range", ErrCorrupt)
			}
		case 'R':
			ns := int64(binary.LittleEndian.Uint64(s[1:]))
			if ns <= st.retention || ns > int64(maxPeriod) || !zero(s[9:slotData]) {
				return res, fmt.Errorf("%w: retention record", ErrCorrupt)
			}
			st.retention, res.widened = ns, true
		case 'B':
			nl, il := int(s[1]), int(s[2])
			data := append([]byte(nil), s[3:slotData]...)
			for len(data) < nl+il {
				if done, err := readSlot(st, r, &s, start, off, size, &res); done {
					return res, err
				}
				if s[0] != 'D' {
					return res, fmt.Errorf("%w: binding record", ErrCorrupt)
				}
				chain.Write(s[:])
				data = append(data, s[1:slotData]...)
				off += slotSize
			}
			if !zero(data[nl+il:]) {
				return res, fmt.Errorf("%w: binding record padding", ErrCorrupt)
			}
			if err := st.bind(string(data[:nl]), string(data[nl:nl+il])); err != nil {
				return res, err
			}
		default:
			return res, fmt.Errorf("%w: record kind %q", ErrCorrupt, s[0])
		}
		st.records++
		st.seq++
		chain.Sum(st.head[:0])
		if err := st.checkWant(); err != nil {
			return res, err
		}
		res.end = off
	}
	return res, nil
}

// tornTail decides about an invalid slot at off, in a record starting at
// start: a torn append if it and everything after it are zeros and no
// longer than one append can be; damage otherwise.
func tornTail(r io.Reader, s []byte, start, off, size int64, res *logRead) error {
	if size-start <= maxBindSize && zero(s) {
		tail, err := io.ReadAll(io.LimitReader(r, size-off-slotSize))
		if err != nil {
			return readErr(err)
		}
		if zero(tail) {
			res.torn = true
			return nil
		}
	}
	return fmt.Errorf("%w: bad record at offset %d", ErrCorrupt, off)
}

func zero(b []byte) bool { return len(bytes.Trim(b, "\x00")) == 0 }

func readErr(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		// The file was shorter than its size said: changed under the lock.
		return fmt.Errorf("%w: file shrank while read", ErrCorrupt)
	}
	return fmt.Errorf("ledger: read: %w", err)
}

// readSlot reads the slot at off into s and verifies its checksum. done
// says reading must stop: at a torn end (res.torn, err nil), or on an
// error; a record that began at start and does not verify is judged by
// tornTail.
func readSlot(st *state, r io.Reader, s *[slotSize]byte, start, off, size int64, res *logRead) (done bool, err error) {
	if size-off < slotSize {
		res.torn = true
		return true, nil
	}
	if _, err := io.ReadFull(r, s[:]); err != nil {
		return true, readErr(err)
	}
	if binary.LittleEndian.Uint32(s[slotData:]) != slotSum(st.nonce, off, s[:]) {
		return true, tornTail(r, s[:], start, off, size, res)
	}
	return false, nil
}
