package alacarte

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

// synthetic is a corpus in which the à la carte model holds exactly:
// every "training-like" word w (named w0, w1, …) occurs only in documents
// [c, w, c'] of two context words, context words (c0, c1, …) occur only in
// such documents (each at most twice, so they stay rare), and v_w is
// exactly A·u_w for a known A. Training-like words never appear in a
// window of another word, so holding some out changes no context average.
type synthetic struct {
	dim     int
	a       []float64 // the true map, row-major
	src     *binarize.Embeddings
	docs    [][]string
	targets map[string][]float32 // extra targets ("t0", …) → A·u
	words   int                  // training-like words, rows [0, words) of src
}

// newSynthetic builds it. If related is false the training-like words get
// random vectors instead of A·u (a negative control).
func newSynthetic(t testing.TB, dim, words, occ, targets int, related bool, seed uint64) *synthetic {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	s := &synthetic{dim: dim, a: make([]float64, dim*dim), targets: map[string][]float32{}, words: words}
	for i := range s.a {
		s.a[i] = r.NormFloat64()
	}
	nctx := (words + targets) * occ // each context word used twice (two per document)
	ctx := make([][]float32, nctx)
	for i := range ctx {
		ctx[i] = make([]float32, dim)
		for j := range ctx[i] {
			ctx[i][j] = float32(r.NormFloat64())
		}
	}
	next := 0
	// occurrences returns the documents of word w and its u.
	occurrences := func(w string) []float64 {
		u := make([]float64, dim)
		for k := 0; k < occ; k++ {
			c1, c2 := next%nctx, (next+1)%nctx
			next += 2
			s.docs = append(s.docs, []string{fmt.Sprintf("c%d", c1), w, fmt.Sprintf("c%d", c2)})
			for j := 0; j < dim; j++ {
				u[j] += (float64(ctx[c1][j]) + float64(ctx[c2][j])) / 2 / float64(occ)
			}
		}
		return u
	}
	apply := func(u []float64) []float32 {
		v := make([]float32, dim)
		for i := 0; i < dim; i++ {
			var x float64
			for j := 0; j < dim; j++ {
				x += s.a[i*dim+j] * u[j]
			}
			v[i] = float32(x)
		}
		return v
	}
	src := &binarize.Embeddings{Dim: dim}
	for i := 0; i < words; i++ {
		w := fmt.Sprintf("w%d", i)
		u := occurrences(w)
		v := apply(u)
		if !related {
			for j := range v {
				v[j] = float32(r.NormFloat64())
			}
		}
		src.Words = append(src.Words, w)
		src.Vectors = append(src.Vectors, v...)
	}
	for i := 0; i < targets; i++ {
		w := fmt.Sprintf("t%d", i)
		s.targets[w] = apply(occurrences(w))
	}
	for i, c := range ctx {
		src.Words = append(src.Words, fmt.Sprintf("c%d", i))
		src.Vectors = append(src.Vectors, c...)
	}
	// Interleave the documents deterministically so word order in the
	// corpus is not the order of the rows.
	r.Shuffle(len(s.docs), func(i, j int) { s.docs[i], s.docs[j] = s.docs[j], s.docs[i] })
	s.src = src
	return s
}

func (s *synthetic) corpus() Corpus {
	return func(fn func([]string) error) error {
		for _, d := range s.docs {
			if err := fn(d); err != nil {
				return err
			}
		}
		return nil
	}
}

func (s *synthetic) targetNames() []string {
	out := make([]string, 0, len(s.targets))
	for i := 0; i < len(s.targets); i++ {
		out = append(out, fmt.Sprintf("t%d", i))
	}
	return out
}

// embeddings builds a small source from word → vector pairs, in order.
func embeddings(dim int, pairs ...any) *binarize.Embeddings {
	e := &binarize.Embeddings{Dim: dim}
	for i := 0; i < len(pairs); i += 2 {
		e.Words = append(e.Words, pairs[i].(string))
		e.Vectors = append(e.Vectors, pairs[i+1].([]float32)...)
	}
	return e
}

// checkPrefixOnce fails if err's message does not name the package exactly
// once (no "alacarte: alacarte:" chains).
func checkPrefixOnce(t *testing.T, err error) {
	t.Helper()
	if n := strings.Count(err.Error(), "alacarte:"); n != 1 {
		t.Errorf("error %q names the package %d times, want once", err, n)
	}
}
