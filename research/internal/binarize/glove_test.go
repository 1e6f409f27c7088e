package binarize

import (
	"errors"
	"strings"
	"testing"
)

func TestReadGloVe(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		opts  ReadOptions
		words []string
		dim   int
		vecs  []float32
	}{
		{"basic", "the 0.5 -1\nof 2 3e-1\n", ReadOptions{}, []string{"the", "of"}, 2, []float32{0.5, -1, 2, 0.3}},
		{"crlf and tabs", "a\t1 2\r\nb 3\t4\r\n", ReadOptions{}, []string{"a", "b"}, 2, []float32{1, 2, 3, 4}},
		{"trailing space", "a 1 2 \nb 3 4 \n", ReadOptions{}, []string{"a", "b"}, 2, []float32{1, 2, 3, 4}},
		{"no final newline", "a 1\nb 2", ReadOptions{}, []string{"a", "b"}, 1, []float32{1, 2}},
		{"non-breaking space stays in the word", "a\u00a0b 1\n", ReadOptions{}, []string{"a\u00a0b"}, 1, []float32{1}},
		{"underflow rounds to zero", "a 1e-60\n", ReadOptions{}, []string{"a"}, 1, []float32{0}},
		{"limit", "a 1\nb 2\nc 3\n", ReadOptions{Limit: 2}, []string{"a", "b"}, 1, []float32{1, 2}},
		{"keep", "A 1\nb 2\n, 3\nc 4\n", ReadOptions{Keep: PlainWord}, []string{"b", "c"}, 1, []float32{2, 4}},
		{"keep and limit", "A 1\nb 2\n, 3\nc 4\n", ReadOptions{Keep: PlainWord, Limit: 1}, []string{"b"}, 1, []float32{2}},
		{"keep nothing", "A 1\nB 2\n", ReadOptions{Keep: PlainWord}, nil, 1, nil},
		// Reading stops at the limit: the malformed third line is never read.
		{"limit stops early", "a 1\nb 2\nc x y z\n", ReadOptions{Limit: 2}, []string{"a", "b"}, 1, []float32{1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ReadGloVe(strings.NewReader(tc.in), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, e)
			want := &Embeddings{Words: tc.words, Dim: tc.dim, Vectors: tc.vecs}
			if !sameEmbeddings(e, want) {
				t.Fatalf("got %+v, want %+v", e, want)
			}
		})
	}
}

func TestReadGloVeErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		sentinel error
		line     int
		msg      string // substring of the message
	}{
		{"empty input", "", ErrEmpty, 0, "no vectors"},
		{"word only", "a\n", ErrFieldCount, 1, "no values"},
		{"inconsistent dimension", "a 1 2\nb 1 2 3\n", ErrDimension, 2, "3 values after the word, want 2 (from line 1)"},
		{"short line", "a 1 2\nb 1 2\nc 1\n", ErrDimension, 3, "1 values"},
		{"bad float", "a 1 2\nb 1 x\n", ErrBadFloat, 2, `field 3: value "x" is not a decimal number`},
		{"hex float", "a 0x1p3\n", ErrBadFloat, 1, "not a decimal"},
		{"underscore", "a 1_0\n", ErrBadFloat, 1, "not a decimal"},
		{"NaN", "a 1\nb NaN\n", ErrNonFinite, 2, "NaN"},
		{"Inf", "a -inf\n", ErrNonFinite, 1, "inf"},
		{"float32 overflow", "a 1e39\n", ErrBadFloat, 1, "overflows float32"},
		{"duplicate word", "a 1\nb 2\na 3\n", ErrDuplicateWord, 3, "already on line 1"},
		{"empty line", "a 1\n\nb 2\n", ErrSyntax, 2, "empty line"},
		{"blank line", "a 1\n  \t\n", ErrSyntax, 2, "empty line"},
		{"invalid UTF-8", "a 1\n\xff\xfe 2\n", ErrSyntax, 2, "UTF-8"},
		{"truncated last line", "a 1 2\nb 1", ErrTruncated, 2, "no newline"},
		{"fastText header", "2 3\na 1 2 3\n", ErrDimension, 2, "use ReadFastText"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ReadGloVe(strings.NewReader(tc.in), ReadOptions{})
			if err == nil {
				t.Fatalf("no error, got %+v", e)
			}
			checkMalformed(t, err)
			if !errors.Is(err, tc.sentinel) {
				t.Fatalf("error %q does not wrap %q", err, tc.sentinel)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError", err)
			}
			if pe.Line != tc.line {
				t.Errorf("line %d, want %d (%v)", pe.Line, tc.line, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message %q lacks %q", err, tc.msg)
			}
		})
	}
}

func TestReadGloVeLongLine(t *testing.T) {
	in := "a " + strings.Repeat("1 ", maxLineBytes/2+10) + "\n"
	_, err := ReadGloVe(strings.NewReader(in), ReadOptions{})
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("got %v, want a line-too-long ErrSyntax", err)
	}
}

func TestReadGloVeIOError(t *testing.T) {
	_, err := ReadGloVe(&failingReader{data: "a 1\nb 2\n", err: errDisk}, ReadOptions{})
	if !errors.Is(err, errDisk) {
		t.Fatalf("got %v, want the reader's error", err)
	}
	if errors.Is(err, ErrMalformed) {
		t.Fatalf("an I/O error is reported as malformed input: %v", err)
	}
	if !strings.Contains(err.Error(), "line 3") {
		t.Errorf("message %q does not name line 3", err)
	}
}

func FuzzReadGloVe(f *testing.F) {
	for _, s := range []string{
		"the 0.5 -1\nof 2 3e-1\n",
		"a 1\nb 2",
		"a\t1 2\r\nb 3\t4\r\n",
		"a 1 2\nb 1 2 3\n",
		"a NaN\n",
		"a 1e39\n",
		"a 1\na 2\n",
		"",
		"\n",
		"2 3\na 1 2 3\n",
		"é 1.5e-3 -0 +7\n",
	} {
		f.Add(s, 0)
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, in string, limit int) {
		opts := ReadOptions{Limit: limit % 4}
		e, err := ReadGloVe(strings.NewReader(in), opts)
		if err != nil {
			checkMalformed(t, err)
			return
		}
		checkResult(t, e)
		if opts.Limit > 0 && e.Len() > opts.Limit {
			t.Fatalf("%d words with limit %d", e.Len(), opts.Limit)
		}
		// What was read writes back and reads again identically.
		again, err := ReadGloVe(strings.NewReader(formatText(e, false)), ReadOptions{})
		if e.Len() == 0 {
			return // nothing to write back
		}
		if err != nil {
			t.Fatalf("re-reading the written form: %v", err)
		}
		if !sameEmbeddings(e, again) {
			t.Fatalf("round trip changed the data: %+v vs %+v", e, again)
		}
	})
}
