package binarize

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// winkDoc writes a wink-format JSON document for words with dimension dim,
// vector i being (i+1)·(1, 2, …, dim)/10, with correct norms and indices.
// The "vectors" object lists words in the order given by order (nil: file
// order), since the reader must not depend on it.
func winkDoc(dim int, words []string, order []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"precision":8,"l2NormIndex":%d,"wordIndex":%d,"size":%d,"dimensions":%d,"words":[`, dim, dim+1, len(words), dim)
	for i, w := range words {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(w))
	}
	b.WriteString(`],"vectors":{`)
	if order == nil {
		for i := range words {
			order = append(order, i)
		}
	}
	for n, i := range order {
		if n > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s:[", strconv.Quote(words[i]))
		v := winkVector(dim, i)
		for _, x := range v {
			fmt.Fprintf(&b, "%s,", strconv.FormatFloat(float64(x), 'g', -1, 32))
		}
		fmt.Fprintf(&b, "%.8f,%d]", l2norm(v), i)
	}
	b.WriteString(`},"unkVector":[`)
	for j := 0; j < dim; j++ {
		b.WriteString("0,")
	}
	b.WriteString("0,-1]}")
	return b.String()
}

func winkVector(dim, i int) []float32 {
	v := make([]float32, dim)
	for j := range v {
		v[j] = float32(i+1) * float32(j+1) / 10
	}
	return v
}

func TestReadWink(t *testing.T) {
	words := []string{"the", ",", "cat", "don't", "Paris", "dog"}
	tests := []struct {
		name  string
		doc   string
		opts  ReadOptions
		words []string
		rows  []int // source rows of the expected vectors
	}{
		{"all", winkDoc(3, words, nil), ReadOptions{}, words, []int{0, 1, 2, 3, 4, 5}},
		{"vectors in another order", winkDoc(3, words, []int{5, 2, 0, 1, 4, 3}), ReadOptions{}, words, []int{0, 1, 2, 3, 4, 5}},
		{"keep", winkDoc(3, words, nil), ReadOptions{Keep: PlainWord}, []string{"the", "cat", "don't", "dog"}, []int{0, 2, 3, 5}},
		{"keep and limit", winkDoc(3, words, []int{5, 2, 0, 1, 4, 3}), ReadOptions{Keep: PlainWord, Limit: 2}, []string{"the", "cat"}, []int{0, 2}},
		{"limit", winkDoc(2, words, nil), ReadOptions{Limit: 3}, words[:3], []int{0, 1, 2}},
		// The limit is complete before the garbage, which is never read.
		{"limit stops early", winkDoc(2, words, nil)[:strings.LastIndex(winkDoc(2, words, nil), `"dog"`)] + "garbage", ReadOptions{Limit: 2}, words[:2], []int{0, 1}},
		{"keep nothing", winkDoc(2, words, nil), ReadOptions{Keep: func(string) bool { return false }}, nil, nil},
		{"unknown field skipped", strings.Replace(winkDoc(2, words, nil), `"precision":8`, `"extra":{"a":[1,2]},"precision":8`, 1), ReadOptions{}, words, []int{0, 1, 2, 3, 4, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ReadWink(strings.NewReader(tc.doc), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, e)
			want := &Embeddings{Words: tc.words, Dim: e.Dim}
			for _, r := range tc.rows {
				want.Vectors = append(want.Vectors, winkVector(e.Dim, r)...)
			}
			if !sameEmbeddings(e, want) {
				t.Fatalf("got %+v, want %+v", e, want)
			}
		})
	}
}

func TestReadWinkErrors(t *testing.T) {
	words := []string{"a", "b", "c"}
	doc := winkDoc(2, words, nil) // vectors: a [.1 .2], b [.2 .4], c [.3 .6]
	norm := func(i int) string { return fmt.Sprintf("%.8f", l2norm(winkVector(2, i))) }
	tests := []struct {
		name     string
		doc      string
		sentinel error
		field    string
		msg      string
	}{
		{"empty", "", ErrEmpty, "", "empty input"},
		{"not an object", "[1,2]", ErrSyntax, "", "want a JSON object"},
		{"bad JSON", `{"size":}`, ErrSyntax, "size", "invalid character"},
		{"truncated", doc[:strings.Index(doc, `"b":[0.2,`)+9], ErrTruncated, `vectors["b"]`, "input ends"},
		{"truncated in words", doc[:strings.Index(doc, `"b"`)], ErrTruncated, "words", "input ends"},
		{"trailing data", doc + "{}", ErrSyntax, "", "data after"},
		{"short vector", strings.Replace(doc, `"b":[0.2,0.4,`, `"b":[0.2,`, 1), ErrFieldCount, `vectors["b"]`, "3 numbers, want 4"},
		{"long vector", strings.Replace(doc, `"b":[0.2,0.4,`, `"b":[0.2,0.4,7,`, 1), ErrFieldCount, `vectors["b"]`, "5 numbers, want 4"},
		{"non-number component", strings.Replace(doc, `"b":[0.2,`, `"b":["x",`, 1), ErrSyntax, `vectors["b"]`, "array of numbers"},
		{"float32 overflow", strings.Replace(doc, `"b":[0.2,`, `"b":[1e39,`, 1), ErrBadFloat, `vectors["b"][0]`, "overflows float32"},
		{"index points elsewhere", strings.Replace(doc, norm(1)+",1]", norm(1)+",2]", 1), ErrHeader, `vectors["b"]`, `words[2] is "c"`},
		{"index out of range", strings.Replace(doc, norm(1)+",1]", norm(1)+",9]", 1), ErrHeader, `vectors["b"][3]`, "not an integer in [0, 3)"},
		{"index not integer", strings.Replace(doc, norm(1)+",1]", norm(1)+",1.5]", 1), ErrHeader, `vectors["b"][3]`, "1.5"},
		{"norm mismatch", strings.Replace(doc, norm(1), "9.5", 1), ErrMalformed, `vectors["b"]`, "stored norm 9.5"},
		{"duplicate vector", strings.Replace(doc, `"c":[`, `"b":[0.2,0.4,`+norm(1)+`,1],"c":[`, 1), ErrDuplicateWord, `vectors["b"]`, "second vector"},
		{"missing vector", strings.Replace(doc, `,"c":[0.3,0.6,`+norm(2)+`,2]`, ``, 1), ErrHeader, "vectors", "2 vectors for 3 words"},
		{"duplicate word", strings.Replace(doc, `"words":["a","b","c"]`, `"words":["a","b","a"]`, 1), ErrDuplicateWord, "words[2]", "already at words[0]"},
		{"size mismatch", strings.Replace(doc, `"size":3`, `"size":4`, 1), ErrHeader, "words", "size is 4"},
		{"non-string word", strings.Replace(doc, `"words":["a"`, `"words":[1`, 1), ErrSyntax, "words[0]", "want a string"},
		{"dimension zero", strings.Replace(doc, `"dimensions":2`, `"dimensions":0`, 1), ErrHeader, "dimensions", "not an integer in [1, 65536]"},
		{"bad layout", strings.Replace(doc, `"l2NormIndex":2`, `"l2NormIndex":0`, 1), ErrHeader, "vectors", "l2NormIndex 0"},
		{"vectors before words", `{"dimensions":2,"l2NormIndex":2,"wordIndex":3,"vectors":{}}`, ErrSyntax, "vectors", "before \"words\""},
		{"vectors before dimensions", `{"words":["a"],"vectors":{}}`, ErrSyntax, "vectors", "before \"dimensions\""},
		{"missing vectors", `{"dimensions":2,"words":["a"]}`, ErrSyntax, "vectors", "missing field"},
		{"repeated field", `{"dimensions":2,"dimensions":2}`, ErrSyntax, "dimensions", "twice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.doc == doc && tc.name != "trailing data" {
				t.Fatal("fixture edit did not apply")
			}
			e, err := ReadWink(strings.NewReader(tc.doc), ReadOptions{})
			if err == nil {
				t.Fatalf("no error, got %+v", e)
			}
			checkMalformed(t, err)
			if !errors.Is(err, tc.sentinel) {
				t.Fatalf("error %q does not wrap %q", err, tc.sentinel)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%T is not a *ParseError", err)
			}
			if pe.Field != tc.field {
				t.Errorf("field %q, want %q (%v)", pe.Field, tc.field, err)
			}
			if pe.Offset < 0 || pe.Offset > int64(len(tc.doc)) {
				t.Errorf("offset %d outside the input", pe.Offset)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message %q lacks %q", err, tc.msg)
			}
		})
	}
}

func TestReadWinkIOError(t *testing.T) {
	doc := winkDoc(2, []string{"a", "b"}, nil)
	_, err := ReadWink(&failingReader{data: doc[:40], err: errDisk}, ReadOptions{})
	if !errors.Is(err, errDisk) || errors.Is(err, ErrMalformed) {
		t.Fatalf("got %v, want the reader's error only", err)
	}
}

func FuzzReadWink(f *testing.F) {
	words := []string{"the", ",", "cat"}
	f.Add(winkDoc(2, words, nil), 0)
	f.Add(winkDoc(3, words, []int{2, 0, 1}), 2)
	f.Add(winkDoc(1, words[:1], nil), 1)
	f.Add(`{"dimensions":2,"l2NormIndex":2,"wordIndex":3,"words":[],"vectors":{}}`, 0)
	f.Add(`{"words":["a"],"vectors":{}}`, 0)
	f.Add(`{"size":}`, 0)
	f.Add("", 0)
	f.Fuzz(func(t *testing.T, in string, limit int) {
		opts := ReadOptions{Limit: limit % 4}
		e, err := ReadWink(strings.NewReader(in), opts)
		if err != nil {
			checkMalformed(t, err)
			return
		}
		checkResult(t, e)
		if opts.Limit > 0 && e.Len() > opts.Limit {
			t.Fatalf("%d words with limit %d", e.Len(), opts.Limit)
		}
	})
}
