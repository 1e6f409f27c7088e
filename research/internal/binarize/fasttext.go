package binarize

import (
	"fmt"
	"io"
	"strconv"
)

// ReadFastText reads the fastText .vec text format: a header line "N Dim"
// followed by N lines in the GloVe format of exactly Dim values each
// (fastText writes a trailing space on every line; it is accepted).
//
// The header is checked against the data: fewer than N entries is
// ErrTruncated, more is ErrHeader, a line with a different number of values
// is ErrFieldCount. With opts.Limit reading stops early and the count is
// not checked. Other errors are as for ReadGloVe.
func ReadFastText(r io.Reader, opts ReadOptions) (*Embeddings, error) {
	t := newTextReader("fasttext", r, opts)
	header, err := t.ls.next()
	if err == io.EOF {
		return nil, &ParseError{Format: t.format, Line: 0, Offset: -1, Msg: "empty input, want an \"N Dim\" header", Err: ErrEmpty}
	}
	if err != nil {
		return nil, t.ioErr(err)
	}
	n, dim, err := parseHeader(header)
	if err != nil {
		return nil, t.errAt(ErrHeader, "%v", err)
	}
	t.dim, t.dimSrc = dim, "header"
	for {
		line, err := t.ls.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, t.ioErr(err)
		}
		if t.read == n {
			return nil, t.errAt(ErrHeader, "more entries than the %d announced in the header", n)
		}
		stop, err := t.entry(line)
		if err != nil {
			return nil, err
		}
		if stop {
			return t.finish()
		}
	}
	if t.read < n {
		return nil, &ParseError{Format: t.format, Line: t.ls.line, Offset: -1,
			Msg: fmt.Sprintf("input ends after %d of the %d entries announced in the header", t.read, n), Err: ErrTruncated}
	}
	if n == 0 {
		return nil, &ParseError{Format: t.format, Line: 1, Offset: -1, Msg: "header announces 0 entries", Err: ErrEmpty}
	}
	return t.finish()
}

// parseHeader parses "N Dim" with 0 ≤ N and 1 ≤ Dim ≤ MaxDim.
func parseHeader(line string) (n, dim int, err error) {
	f := splitFields(nil, line)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("header %s has %d fields, want 2 (\"N Dim\")", quoteShort(line), len(f))
	}
	n64, err := strconv.ParseUint(f[0], 10, 31)
	if err != nil {
		return 0, 0, fmt.Errorf("word count %s is not a non-negative integer below 2^31", quoteShort(f[0]))
	}
	d64, err := strconv.ParseUint(f[1], 10, 31)
	if err != nil || d64 < 1 || d64 > MaxDim {
		return 0, 0, fmt.Errorf("dimension %s is not an integer in [1, %d]", quoteShort(f[1]), MaxDim)
	}
	return int(n64), int(d64), nil
}
