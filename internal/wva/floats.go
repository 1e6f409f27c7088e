package wva

import (
	"encoding/binary"
	"math"
)

// FLOATS section (raw form): N·Dim IEEE-754 float32 values, little-endian,
// row-major (word 0's vector first). Research builds only; the encoder
// compresses it when DEFLATE helps.

func encodeFloats(f []float32) []byte {
	b := make([]byte, 4*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

func decodeFloats(raw []byte, n, dim int) ([]float32, error) {
	const part = "section FLOATS"
	if dim <= 0 {
		return nil, corruptf(part, "present but header dim is %d", dim)
	}
	if uint64(len(raw)) != 4*uint64(n)*uint64(dim) {
		return nil, corruptf(part, "%d bytes, %d words of dim %d need %d", len(raw), n, dim, 4*uint64(n)*uint64(dim))
	}
	f := make([]float32, len(raw)/4)
	for i := range f {
		v := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, corruptf(part, "word %d component %d is %v", i/dim, i%dim, v)
		}
		f[i] = v
	}
	return f, nil
}
