package binarize

import (
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"
)

// formatText writes e in the GloVe text format (with a fastText header if
// header is set), using the shortest float32 representation so that a
// re-read gives identical values.
func formatText(e *Embeddings, header bool) string {
	var b strings.Builder
	if header {
		b.WriteString(strconv.Itoa(e.Len()) + " " + strconv.Itoa(e.Dim) + "\n")
	}
	for i, w := range e.Words {
		b.WriteString(w)
		for _, v := range e.Vector(i) {
			b.WriteByte(' ')
			b.WriteString(strconv.FormatFloat(float64(v), 'g', -1, 32))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// checkResult asserts the invariants every successful read must satisfy.
func checkResult(t *testing.T, e *Embeddings) {
	t.Helper()
	if e == nil {
		t.Fatal("nil embeddings without error")
	}
	if len(e.Vectors) != len(e.Words)*e.Dim {
		t.Fatalf("%d floats for %d words of dimension %d", len(e.Vectors), len(e.Words), e.Dim)
	}
	if err := e.Validate(); err != nil {
		t.Fatalf("result does not validate: %v", err)
	}
}

// checkMalformed asserts that err is a content error with a message.
func checkMalformed(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, ErrMalformed) {
		t.Fatalf("error %v (%T) does not wrap ErrMalformed", err, err)
	}
	if err.Error() == "" {
		t.Fatal("empty error message")
	}
}

func sameEmbeddings(a, b *Embeddings) bool {
	if a.Dim != b.Dim || len(a.Words) != len(b.Words) || len(a.Vectors) != len(b.Vectors) {
		return false
	}
	for i := range a.Words {
		if a.Words[i] != b.Words[i] {
			return false
		}
	}
	for i := range a.Vectors {
		if math.Float32bits(a.Vectors[i]) != math.Float32bits(b.Vectors[i]) {
			return false
		}
	}
	return true
}

// failingReader returns its data and then a non-EOF error, to check that
// I/O errors are passed through rather than reported as malformed input.
type failingReader struct {
	data string
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if f.data == "" {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

var errDisk = errors.New("disk on fire")

var _ io.Reader = (*failingReader)(nil)

// clustered returns nClusters·perCluster vectors of dimension dim: cluster
// centres are standard Gaussian, members are centre + spread·Gaussian.
// Word names are "w<row>"; rows are grouped by cluster.
func clustered(seed uint64, nClusters, perCluster, dim int, spread float64) *Embeddings {
	r := newRNG(seed, 99)
	e := &Embeddings{Dim: dim}
	centre := make([]float64, dim)
	for c := 0; c < nClusters; c++ {
		for j := range centre {
			centre[j] = r.normal()
		}
		for m := 0; m < perCluster; m++ {
			e.Words = append(e.Words, "w"+strconv.Itoa(len(e.Words)))
			for j := range centre {
				e.Vectors = append(e.Vectors, float32(centre[j]+spread*r.normal()))
			}
		}
	}
	return e
}
