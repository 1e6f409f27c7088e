package binarize

import (
	"errors"
	"fmt"
	"math"
)

// MaxDim bounds the dimension any reader accepts. It keeps a corrupt or
// hostile header from making a reader allocate unbounded memory; real word
// embeddings have a few hundred dimensions.
const MaxDim = 1 << 16

// Embeddings is a table of float word vectors in file order (for GloVe and
// the wink package that is frequency order, most frequent first).
type Embeddings struct {
	Words   []string  // Words[i] is the word of row i; no duplicates
	Dim     int       // length of every vector, ≥ 1
	Vectors []float32 // row-major, len(Vectors) == len(Words)*Dim
}

// Len returns the number of words.
func (e *Embeddings) Len() int { return len(e.Words) }

// Vector returns row i as a sub-slice of Vectors (not a copy).
func (e *Embeddings) Vector(i int) []float32 {
	return e.Vectors[i*e.Dim : (i+1)*e.Dim : (i+1)*e.Dim]
}

// ErrInvalid is wrapped by errors about arguments of the binarization and
// evaluation functions (as opposed to malformed input files).
var ErrInvalid = errors.New("binarize: invalid argument")

// Validate checks the invariants the binarizers rely on: a positive
// dimension, a consistent flat length, finite values and unique words.
func (e *Embeddings) Validate() error {
	if e == nil {
		return fmt.Errorf("%w: nil embeddings", ErrInvalid)
	}
	if e.Dim < 1 || e.Dim > MaxDim {
		return fmt.Errorf("%w: dimension %d out of range [1, %d]", ErrInvalid, e.Dim, MaxDim)
	}
	if len(e.Vectors) != len(e.Words)*e.Dim {
		return fmt.Errorf("%w: %d floats for %d words of dimension %d", ErrInvalid, len(e.Vectors), len(e.Words), e.Dim)
	}
	for i, v := range e.Vectors {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("%w: non-finite value in row %d (%q)", ErrInvalid, i/e.Dim, e.Words[i/e.Dim])
		}
	}
	seen := make(map[string]int, len(e.Words))
	for i, w := range e.Words {
		if j, dup := seen[w]; dup {
			return fmt.Errorf("%w: word %q in rows %d and %d", ErrInvalid, w, j, i)
		}
		seen[w] = i
	}
	return nil
}

// ReadOptions selects which entries a reader keeps. The zero value keeps
// everything.
type ReadOptions struct {
	// Keep, if non-nil, is asked about each word in file order; words it
	// rejects are validated like the others but not returned.
	Keep func(word string) bool
	// Limit, if positive, keeps only the first Limit accepted words. Reading
	// then stops as soon as they are complete: the rest of the input is
	// neither read nor validated (so a top-N read of a large file is fast).
	Limit int
}

func (o ReadOptions) keep(w string) bool { return o.Keep == nil || o.Keep(w) }

// full reports whether n kept words already satisfy the limit.
func (o ReadOptions) full(n int) bool { return o.Limit > 0 && n >= o.Limit }

func errorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}
