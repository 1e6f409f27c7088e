package binarize

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// maxLineBytes bounds one text line: MaxDim values of up to ~60 bytes each.
const maxLineBytes = 4 << 20

// lineScanner yields lines without their terminator ("\n" or "\r\n") and
// remembers whether the last one had a terminator, which is how truncation
// is told apart from a merely malformed line.
type lineScanner struct {
	sc         *bufio.Scanner
	line       int  // 1-based number of the line last returned
	terminated bool // the line last returned ended with '\n'
}

func newLineScanner(r io.Reader) *lineScanner {
	ls := &lineScanner{sc: bufio.NewScanner(r)}
	ls.sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	ls.sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			ls.terminated = true
			return i + 1, bytes.TrimSuffix(data[:i], []byte{'\r'}), nil
		}
		if atEOF && len(data) > 0 {
			ls.terminated = false
			return len(data), bytes.TrimSuffix(data, []byte{'\r'}), nil
		}
		return 0, nil, nil
	})
	return ls
}

// next returns the next line as a string (one allocation per line; fields
// are then substrings of it), or io.EOF.
func (ls *lineScanner) next() (string, error) {
	if ls.sc.Scan() {
		ls.line++
		return ls.sc.Text(), nil
	}
	if err := ls.sc.Err(); err != nil {
		return "", err
	}
	return "", io.EOF
}

// splitFields splits on runs of ASCII spaces and tabs only: GloVe words may
// contain other Unicode spaces (U+00A0), which strings.Fields would split.
// It appends to dst to reuse its storage.
func splitFields(dst []string, s string) []string {
	dst = dst[:0]
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > i {
			dst = append(dst, s[i:j])
		}
		i = j
	}
	return dst
}

// textReader holds the state shared by the GloVe and fastText readers.
type textReader struct {
	format string
	ls     *lineScanner
	opts   ReadOptions
	dim    int            // 0 until known
	dimSrc string         // where dim came from, for messages
	seen   map[string]int // word -> line, for duplicate detection
	out    *Embeddings
	fields []string
	read   int // entries read (kept or not)
}

func newTextReader(format string, r io.Reader, opts ReadOptions) *textReader {
	return &textReader{
		format: format,
		ls:     newLineScanner(r),
		opts:   opts,
		seen:   make(map[string]int),
		out:    &Embeddings{},
	}
}

func (t *textReader) errAt(sentinel error, format string, args ...any) error {
	pe := &ParseError{Format: t.format, Line: t.ls.line, Offset: -1, Msg: fmt.Sprintf(format, args...), Err: sentinel}
	if !t.ls.terminated {
		// The final line lacks its newline: the file was most likely cut
		// short, which is the more useful diagnosis.
		pe.Msg = "last line is incomplete (no newline): " + pe.Msg
		pe.Err = ErrTruncated
	}
	return pe
}

func (t *textReader) ioErr(err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return &ParseError{Format: t.format, Line: t.ls.line + 1, Offset: -1,
			Msg: fmt.Sprintf("line longer than %d bytes", maxLineBytes), Err: ErrSyntax}
	}
	return fmt.Errorf("binarize: %s: reading line %d: %w", t.format, t.ls.line+1, err)
}

// entry parses one "word v1 … vDim" line and appends it if kept. It returns
// whether the caller should stop because the limit is reached.
func (t *textReader) entry(line string) (bool, error) {
	if strings.TrimSpace(line) == "" {
		return false, t.errAt(ErrSyntax, "empty line")
	}
	t.fields = splitFields(t.fields, line)
	word, vals := t.fields[0], t.fields[1:]
	if !utf8.ValidString(word) {
		return false, t.errAt(ErrSyntax, "word %s is not valid UTF-8", quoteShort(word))
	}
	if t.dim == 0 {
		if len(vals) == 0 {
			return false, t.errAt(ErrFieldCount, "word %s has no values", quoteShort(word))
		}
		if len(vals) > MaxDim {
			return false, t.errAt(ErrDimension, "%d values, more than MaxDim = %d", len(vals), MaxDim)
		}
		t.dim, t.dimSrc = len(vals), fmt.Sprintf("line %d", t.ls.line)
	}
	if len(vals) != t.dim {
		sentinel := ErrDimension
		if t.dimSrc == "header" {
			sentinel = ErrFieldCount
		}
		return false, t.errAt(sentinel, "%d values after the word, want %d (from %s)", len(vals), t.dim, t.dimSrc)
	}
	if first, dup := t.seen[word]; dup {
		return false, t.errAt(ErrDuplicateWord, "word %s already on line %d", quoteShort(word), first)
	}
	t.seen[word] = t.ls.line
	t.read++
	keep := t.opts.keep(word)
	start := len(t.out.Vectors)
	for i, s := range vals {
		f, msg, err := parseValue(s)
		if err != nil {
			t.out.Vectors = t.out.Vectors[:start]
			return false, t.errAt(err, "field %d: %s", i+2, msg)
		}
		if keep {
			t.out.Vectors = append(t.out.Vectors, f)
		}
	}
	if keep {
		t.out.Words = append(t.out.Words, word)
	}
	return t.opts.full(len(t.out.Words)), nil
}

// finish sets the dimension on the result. A file without any vector is
// an error; a filter that rejects every word is not.
func (t *textReader) finish() (*Embeddings, error) {
	if t.dim == 0 {
		return nil, &ParseError{Format: t.format, Line: t.ls.line, Offset: -1, Msg: "no vectors in input", Err: ErrEmpty}
	}
	t.out.Dim = t.dim
	return t.out, nil
}
