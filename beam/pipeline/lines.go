package pipeline

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// The pipeline reads its input files with its own small reader, built on
// bufio, rather than with a public API of the SDK: bounded reading of
// batch input files is this pipeline's concern, not the privatizer's (the
// CLI's reader of stdin, internal to the SDK, also answers an interactive
// user line by line, which no file needs), and a data team's pipeline
// imports only the SDK's public packages.

// errLineTooLong: a line is longer than the reader's maxLine bytes.
var errLineTooLong = errors.New("line too long")

// lineBuf is the read buffer's largest size: a file is read in few system
// calls, and it is the small constant of the memory bound.
const lineBuf = 64 << 10

// lineReader reads the lines of one file, each at most maxLine bytes
// counting its '\n'. It holds at most maxLine bytes of a line plus its
// read buffer, whatever the file: a longer line is refused as soon as
// more than maxLine bytes of it have been read, and skipLine reads through
// the rest of it without keeping any. Lines come back byte for byte, with
// their '\n' (and any '\r' before it); the last one may lack it. off
// counts the bytes consumed, so a line starts at the off before the
// readLine that returns it; skipTo goes forward to such an offset (the
// re-read of granted records). Not safe for concurrent use.
type lineReader struct {
	src     io.Reader
	br      *bufio.Reader
	maxLine int
	off     int64  // bytes of the file consumed: the offset of the next line
	line    []byte // a line longer than the read buffer, assembled
	inLong  bool   // the rest of a refused line is unread
	err     error  // sticky: io.EOF or the file's error
}

// newLineReader returns a reader of r's lines; maxLine must be ≥ 1 (the
// options check it).
func newLineReader(r io.Reader, maxLine int) *lineReader {
	return &lineReader{src: r, br: bufio.NewReaderSize(r, min(lineBuf, maxLine+1)), maxLine: maxLine}
}

// readSlice is bufio's ReadSlice, counting what it consumes.
func (r *lineReader) readSlice() ([]byte, error) {
	frag, err := r.br.ReadSlice('\n')
	r.off += int64(len(frag))
	return frag, err
}

// skipTo moves forward to offset off, the start of a line: by a seek
// when the file can seek (a local, uncompressed file) and off is past the
// buffer, otherwise by reading through (a file that cannot seek is
// re-read in one pass, by seqRereadFn, not segment by segment: its
// markers say so). Going back is an error.
func (r *lineReader) skipTo(off int64) error {
	n := off - r.off
	switch {
	case n < 0:
		return fmt.Errorf("offset %d is behind the reader (at %d)", off, r.off)
	case n == 0:
		return nil
	}
	if s, ok := r.src.(io.Seeker); ok && n > int64(r.br.Buffered()) {
		if _, err := s.Seek(off, io.SeekStart); err != nil {
			return err
		}
		r.br.Reset(r.src)
		r.off, r.inLong, r.err = off, false, nil
		return nil
	}
	for n > 0 {
		d, err := r.br.Discard(int(min(n, lineBuf)))
		r.off += int64(d)
		n -= int64(d)
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readLine returns the next line, and io.EOF after the last. A line longer
// than maxLine is errLineTooLong, with nothing of it returned; skipLine
// then goes past it. The file's error is returned with the part of the
// line read before it, and is final.
func (r *lineReader) readLine() (string, error) {
	if r.err != nil {
		return "", r.err
	}
	defer func() {
		if cap(r.line) > lineBuf { // one long line must not keep its buffer
			r.line = nil
		}
	}()
	r.line = r.line[:0]
	for {
		frag, err := r.readSlice()
		if len(r.line)+len(frag) > r.maxLine {
			r.inLong = err == bufio.ErrBufferFull
			if err != nil && err != bufio.ErrBufferFull {
				r.err = err
			}
			return "", errLineTooLong
		}
		if err == nil && len(r.line) == 0 {
			return string(frag), nil // the common case: the line is in the buffer
		}
		r.appendLine(frag)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == nil:
			return string(r.line), nil
		case err == io.EOF && len(r.line) > 0:
			r.err = err
			return string(r.line), nil // the next call reports io.EOF
		default:
			r.err = err
			return string(r.line), err
		}
	}
}

// appendLine appends p to the line, its capacity growing to at most
// maxLine (append alone could double it past the bound). The caller has
// checked that the line stays within maxLine.
func (r *lineReader) appendLine(p []byte) {
	if need := len(r.line) + len(p); need > cap(r.line) {
		grown := make([]byte, len(r.line), min(max(2*cap(r.line), need), r.maxLine))
		copy(grown, r.line)
		r.line = grown
	}
	r.line = append(r.line, p...)
}

// skipLine reads through the rest of the line readLine refused, keeping
// none of it, so that the next readLine returns the line after it. It
// returns the file's error (not io.EOF, which the next readLine reports).
func (r *lineReader) skipLine() error {
	for r.inLong {
		_, err := r.readSlice()
		if err == bufio.ErrBufferFull {
			continue
		}
		r.inLong = false
		if err != nil {
			r.err = err
			if err != io.EOF {
				return err
			}
		}
	}
	return nil
}
