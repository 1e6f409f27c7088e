package binarize

import (
	"io"
	"strconv"
)

// ReadGloVe reads the GloVe text format: one entry per line, the word then
// Dim decimal values, separated by spaces or tabs, with no header. Dim is
// taken from the first line and every other line must agree. Lines end in
// "\n" or "\r\n"; the final newline may be missing, but a final line that
// is both unterminated and malformed is reported as ErrTruncated. Words
// must be valid UTF-8 and must not contain spaces or tabs.
//
// Errors are *ParseError values naming the line; they wrap ErrMalformed and
// a specific sentinel (ErrDimension, ErrBadFloat, ErrNonFinite,
// ErrDuplicateWord, ErrTruncated, ErrSyntax, ErrEmpty). I/O errors of r are
// wrapped as they are.
func ReadGloVe(r io.Reader, opts ReadOptions) (*Embeddings, error) {
	t := newTextReader("glove", r, opts)
	var firstLine string
	for {
		line, err := t.ls.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, t.ioErr(err)
		}
		if t.ls.line == 1 {
			firstLine = line
		}
		stop, err := t.entry(line)
		if err != nil {
			if t.ls.line == 2 && looksLikeHeader(firstLine) {
				pe := err.(*ParseError)
				pe.Msg += "; line 1 looks like a fastText \"N Dim\" header: use ReadFastText"
			}
			return nil, err
		}
		if stop {
			break
		}
	}
	return t.finish()
}

// looksLikeHeader reports whether line is two non-negative integers.
func looksLikeHeader(line string) bool {
	f := splitFields(nil, line)
	if len(f) != 2 {
		return false
	}
	for _, s := range f {
		if _, err := strconv.ParseUint(s, 10, 63); err != nil {
			return false
		}
	}
	return true
}
