package binarize

// NewSRP builds the sign-random-projection baseline for e: the mean of e
// is taken as the centring vector, and W has i.i.d. standard Gaussian
// entries drawn, row by row, from seed. For centred inputs each bit then
// differs between two words with probability θ/π (θ their angle), so the
// Hamming distance estimates the angle with binomial noise.
func NewSRP(e *Embeddings, seed uint64) (*Projection, error) {
	mean, err := Mean(e)
	if err != nil {
		return nil, err
	}
	return &Projection{
		Method: "srp",
		Seed:   seed,
		Dim:    e.Dim,
		Prep:   Preprocess{Mean: mean, Gain: 1},
		W:      gaussianMatrix(seed, Bits, e.Dim),
	}, nil
}

// gaussianMatrix returns rows×cols standard Gaussian values in row-major
// order from the SRP stream of seed.
func gaussianMatrix(seed uint64, rows, cols int) []float64 {
	r := newRNG(seed, streamSRP)
	w := make([]float64, rows*cols)
	for i := range w {
		w[i] = r.normal()
	}
	return w
}
