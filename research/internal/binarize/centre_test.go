package binarize

import (
	"errors"
	"math"
	"testing"
)

func TestCentre(t *testing.T) {
	e := &Embeddings{Words: []string{"a", "b", "c"}, Dim: 2, Vectors: []float32{1, 10, 2, 20, 3, 60}}
	orig := append([]float32(nil), e.Vectors...)
	c, mean, err := Centre(e)
	if err != nil {
		t.Fatal(err)
	}
	if mean[0] != 2 || mean[1] != 30 {
		t.Fatalf("mean %v, want [2 30]", mean)
	}
	want := []float32{-1, -20, 0, -10, 1, 30}
	for i := range want {
		if c.Vectors[i] != want[i] {
			t.Fatalf("centred %v, want %v", c.Vectors, want)
		}
	}
	for i := range orig {
		if e.Vectors[i] != orig[i] {
			t.Fatal("Centre modified its input")
		}
	}
	m2, _ := Mean(c)
	for _, v := range m2 {
		if math.Abs(float64(v)) > 1e-6 {
			t.Fatalf("mean after centring %v", m2)
		}
	}
	if _, _, err := Centre(&Embeddings{Dim: 2}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("centring nothing: %v", err)
	}
}

func TestEmbeddingsValidate(t *testing.T) {
	tests := []struct {
		name string
		e    *Embeddings
		ok   bool
	}{
		{"good", &Embeddings{Words: []string{"a", "b"}, Dim: 1, Vectors: []float32{1, 2}}, true},
		{"empty but dimensioned", &Embeddings{Dim: 3}, true},
		{"nil", nil, false},
		{"dimension zero", &Embeddings{Dim: 0}, false},
		{"dimension too large", &Embeddings{Dim: MaxDim + 1}, false},
		{"short vectors", &Embeddings{Words: []string{"a"}, Dim: 2, Vectors: []float32{1}}, false},
		{"infinite", &Embeddings{Words: []string{"a"}, Dim: 1, Vectors: []float32{float32(math.Inf(1))}}, false},
		{"duplicate", &Embeddings{Words: []string{"a", "a"}, Dim: 1, Vectors: []float32{1, 2}}, false},
	}
	for _, tc := range tests {
		err := tc.e.Validate()
		if tc.ok != (err == nil) || (err != nil && !errors.Is(err, ErrInvalid)) {
			t.Errorf("%s: Validate() = %v", tc.name, err)
		}
	}
}

func TestParseErrorMessage(t *testing.T) {
	err := error(&ParseError{Format: "wink", Field: `vectors["a"]`, Offset: 12, Msg: "bad", Err: ErrFieldCount})
	want := `binarize: wink field vectors["a"] at byte 12: bad: malformed embeddings: wrong number of fields`
	if err.Error() != want {
		t.Fatalf("got %q\nwant %q", err, want)
	}
	if !errors.Is(err, ErrFieldCount) || !errors.Is(err, ErrMalformed) || errors.Is(err, ErrBadFloat) {
		t.Fatal("sentinel chain broken")
	}
}
