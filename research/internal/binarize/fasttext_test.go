package binarize

import (
	"errors"
	"strings"
	"testing"
)

func TestReadFastText(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		opts  ReadOptions
		words []string
		vecs  []float32
	}{
		{"basic with fastText's trailing spaces", "2 2\n</s> 0.1 0.2 \nthe -1 1 \n", ReadOptions{}, []string{"</s>", "the"}, []float32{0.1, 0.2, -1, 1}},
		{"keep", "3 1\nA 1\nb 2\nc 3\n", ReadOptions{Keep: PlainWord}, []string{"b", "c"}, []float32{2, 3}},
		// With a limit the count is not checked and the rest is not read.
		{"limit stops early", "3 1\na 1\nb 2\n", ReadOptions{Limit: 2}, []string{"a", "b"}, []float32{1, 2}},
		{"limit above count", "2 1\na 1\nb 2\n", ReadOptions{Limit: 5}, []string{"a", "b"}, []float32{1, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ReadFastText(strings.NewReader(tc.in), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, e)
			if e.Dim != len(tc.vecs)/max(1, len(tc.words)) || !sameEmbeddings(e, &Embeddings{Words: tc.words, Dim: e.Dim, Vectors: tc.vecs}) {
				t.Fatalf("got %+v, want words %v vectors %v", e, tc.words, tc.vecs)
			}
		})
	}
}

func TestReadFastTextErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		sentinel error
		line     int
		msg      string
	}{
		{"empty input", "", ErrEmpty, 0, "empty input"},
		{"header only one field", "5\n", ErrHeader, 1, "has 1 fields"},
		{"header not numbers", "a b\n", ErrHeader, 1, "not a non-negative integer"},
		{"header zero dimension", "1 0\na\n", ErrHeader, 1, "dimension"},
		{"header huge dimension", "1 100000000\n", ErrHeader, 1, "dimension"},
		{"fewer entries than announced", "3 1\na 1\nb 2\n", ErrTruncated, 3, "after 2 of the 3 entries"},
		{"more entries than announced", "1 1\na 1\nb 2\n", ErrHeader, 3, "more entries than the 1"},
		{"zero entries announced", "0 3\n", ErrEmpty, 1, "0 entries"},
		{"wrong field count", "2 2\na 1 2\nb 1\n", ErrFieldCount, 3, "1 values after the word, want 2 (from header)"},
		{"bad float", "1 2\na 1 zz\n", ErrBadFloat, 2, "field 3"},
		{"NaN", "1 1\na nan\n", ErrNonFinite, 2, "nan"},
		{"duplicate", "2 1\na 1\na 2\n", ErrDuplicateWord, 3, "already on line 2"},
		{"truncated line", "2 2\na 1 2\nb 1", ErrTruncated, 3, "no newline"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ReadFastText(strings.NewReader(tc.in), ReadOptions{})
			if err == nil {
				t.Fatalf("no error, got %+v", e)
			}
			checkMalformed(t, err)
			if !errors.Is(err, tc.sentinel) {
				t.Fatalf("error %q does not wrap %q", err, tc.sentinel)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line {
				t.Errorf("error %v: want a *ParseError at line %d", err, tc.line)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message %q lacks %q", err, tc.msg)
			}
		})
	}
}

func TestReadFastTextLimitDoesNotReadFurther(t *testing.T) {
	// The reader fails after the second entry; a limit of 2 never gets there.
	r := &failingReader{data: "1000 1\na 1\nb 2\n", err: errDisk}
	e, err := ReadFastText(r, ReadOptions{Limit: 2})
	if err != nil {
		t.Fatalf("limit read touched the rest of the input: %v", err)
	}
	checkResult(t, e)
	_, err = ReadFastText(&failingReader{data: "1000 1\na 1\nb 2\n", err: errDisk}, ReadOptions{})
	if !errors.Is(err, errDisk) || errors.Is(err, ErrMalformed) {
		t.Fatalf("got %v, want the reader's error only", err)
	}
}

func FuzzReadFastText(f *testing.F) {
	for _, s := range []string{
		"2 2\n</s> 0.1 0.2 \nthe -1 1 \n",
		"3 1\na 1\nb 2\n",
		"1 1\na 1\nb 2\n",
		"0 3\n",
		"2 2\na 1 2\nb 1",
		"1 100000000\n",
		"",
	} {
		f.Add(s, 0)
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, in string, limit int) {
		opts := ReadOptions{Limit: limit % 4}
		e, err := ReadFastText(strings.NewReader(in), opts)
		if err != nil {
			checkMalformed(t, err)
			return
		}
		checkResult(t, e)
		if opts.Limit > 0 && e.Len() > opts.Limit {
			t.Fatalf("%d words with limit %d", e.Len(), opts.Limit)
		}
		if e.Len() == 0 {
			return
		}
		again, err := ReadFastText(strings.NewReader(formatText(e, true)), ReadOptions{})
		if err != nil {
			t.Fatalf("re-reading the written form: %v", err)
		}
		if !sameEmbeddings(e, again) {
			t.Fatalf("round trip changed the data")
		}
	})
}
