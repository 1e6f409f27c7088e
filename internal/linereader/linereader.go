package linereader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrLineTooLong: a line is longer than the Reader's maxLine bytes.
var ErrLineTooLong = errors.New("linereader: line too long")

var (
	errNotReady     = errors.New("linereader: no reader (use New with a non-nil io.Reader and maxLine >= 1)")
	errBadRead      = errors.New("linereader: underlying reader returned an impossible count")
	errNoProgress   = errors.New("linereader: underlying reader returned no data and no error 100 times")
	errNotSkippable = errors.New("linereader: SkipLine without a line too long to skip")
)

// bufSize is the read buffer's size: large enough that a pipe is read in
// few system calls, small enough to be the "small constant" of the bound.
const bufSize = 64 << 10

// Reader reads lines of at most maxLine bytes each. Make one with New.
type Reader struct {
	rd      io.Reader
	maxLine int
	buf     []byte // read buffer; buf[r:w] is read but not yet returned
	r, w    int
	line    []byte // the line being assembled across reads
	rerr    error  // the underlying reader's error, returned once buf[r:w] is used up
	err     error  // sticky: the error every further ReadLine returns
}

// New returns a Reader of the lines of r, each at most maxLine bytes long
// counting its '\n'. With a nil r or a maxLine below 1, every ReadLine
// returns an error.
func New(r io.Reader, maxLine int) *Reader {
	if r == nil || maxLine < 1 {
		return &Reader{err: fmt.Errorf("%w (got maxLine %d)", errNotReady, maxLine)}
	}
	return &Reader{rd: r, maxLine: maxLine, buf: make([]byte, min(bufSize, maxLine+1))}
}

// ReadLine returns the next line including its '\n' (the last line may
// lack it), and io.EOF after the last line. A line longer than maxLine
// bytes gives ErrLineTooLong as soon as more than maxLine bytes of it have
// been read (maxLine bytes without a newline, and one more byte of any
// kind); nothing of it is returned and the error is final. An error of the
// underlying reader is returned with the part of the line read before it
// (as bufio.Reader.ReadString does), and is final.
func (r *Reader) ReadLine() (string, error) {
	switch {
	case r.err != nil:
		return "", r.err
	case r.rd == nil: // the zero Reader
		r.err = errNotReady
		return "", r.err
	}
	r.line = r.line[:0]
	for {
		pending := r.buf[r.r:r.w]
		if i := bytes.IndexByte(pending, '\n'); i >= 0 {
			pending = pending[:i+1]
		}
		if len(r.line)+len(pending) > r.maxLine {
			return "", r.tooLong()
		}
		r.appendLine(pending)
		r.r += len(pending)
		if len(r.line) > 0 && r.line[len(r.line)-1] == '\n' {
			return r.take(), nil
		}
		// buf is used up and the line goes on: read more, or end.
		if r.rerr != nil {
			r.err = r.rerr
			if r.rerr == io.EOF && len(r.line) > 0 {
				return r.take(), nil // the next call reports io.EOF
			}
			return r.take(), r.rerr
		}
		if err := r.fill(); err != nil {
			return "", err
		}
	}
}

// take returns the line as a string. A line buffer grown past the read
// buffer's size is dropped rather than kept for the next line: a reader
// that met one long line would otherwise hold up to maxLine bytes for as
// long as it lives, beside the string made from them.
func (r *Reader) take() string {
	s := string(r.line)
	if cap(r.line) > bufSize {
		r.line = nil
	}
	return s
}

// fill reads into the empty buffer once something or an error comes.
func (r *Reader) fill() error {
	r.r, r.w = 0, 0
	for empty := 0; ; empty++ {
		n, err := r.rd.Read(r.buf)
		if n < 0 || n > len(r.buf) {
			r.err = fmt.Errorf("%w: %d for a %d-byte buffer", errBadRead, n, len(r.buf))
			return r.err
		}
		r.w, r.rerr = n, err
		switch {
		case n > 0 || err != nil:
			return nil
		case empty == 100:
			r.err = errNoProgress
			return r.err
		}
	}
}

// appendLine appends p to the line, growing it to at most maxLine bytes of
// capacity (append alone could double it past the bound). The caller has
// checked that the line stays within maxLine.
func (r *Reader) appendLine(p []byte) {
	if need := len(r.line) + len(p); need > cap(r.line) {
		grown := make([]byte, len(r.line), min(max(2*cap(r.line), need, 512), r.maxLine))
		copy(grown, r.line)
		r.line = grown
	}
	r.line = append(r.line, p...)
}

// tooLong ends the line: its bytes so far are released, the read buffer
// (whose rest SkipLine may still read through) is kept.
func (r *Reader) tooLong() error {
	r.line = nil
	r.err = fmt.Errorf("%w: more than %d bytes without a newline", ErrLineTooLong, r.maxLine)
	return r.err
}

// SkipLine, after ReadLine returned ErrLineTooLong, reads through the rest
// of that line, up to and including its '\n', without keeping it, so that
// ReadLine goes on with the next line (a caller that skips bad records,
// such as the Beam pipeline's reader, counts the line and moves on). It
// returns an error of the underlying reader met on the way, which is then
// final, and errNotSkippable when the last ReadLine did not return
// ErrLineTooLong.
func (r *Reader) SkipLine() error {
	if !errors.Is(r.err, ErrLineTooLong) {
		return errNotSkippable
	}
	r.err = nil
	for {
		pending := r.buf[r.r:r.w]
		if i := bytes.IndexByte(pending, '\n'); i >= 0 {
			r.r += i + 1
			return nil
		}
		r.r = r.w
		if r.rerr != nil {
			r.err = r.rerr // the long line was the last: ReadLine returns io.EOF (or the error)
			if r.rerr == io.EOF {
				return nil
			}
			return r.err
		}
		if err := r.fill(); err != nil {
			return err
		}
	}
}

// Buffered reports whether the next ReadLine returns without reading from
// the underlying reader (so without blocking): a complete line is already
// buffered, or the input has ended (at end, the last line, or an error).
// It never reads itself; a caller grouping lines uses it to stop before a
// read that could wait for an interactive user.
func (r *Reader) Buffered() bool {
	return r.err != nil || r.rerr != nil || bytes.IndexByte(r.buf[r.r:r.w], '\n') >= 0
}
