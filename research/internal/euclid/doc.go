// Package euclid is exact Euclidean search over float32 word vectors, for the
// work that runs off the phone: building TEM's neighbour lists into an asset,
// and the float-embedding mechanisms of the research build (Madlib,
// Mahalanobis, Vickrey, TrLaplace), whose outputs depend on exact nearest
// neighbours.
//
// Two searches: Within (every row within a radius of every row) and Nearest /
// NearestBatch (the k nearest rows to arbitrary query vectors, including far,
// noisy ones).
//
// Guarantee: results are exact for the float64 distance
// sqrt(Σ (float64(a_i) − float64(b_i))²) over the stored float32 values, with
// ties broken by the lower row id. Candidates are found with blocked float32
// dot products (‖a−b‖² = ‖a‖² + ‖b‖² − 2a·b) under a safety margin wider than
// their proven rounding error (filterSlack for k-NN, which grows with the
// query's norm), then every distance that decides membership or order is
// recomputed directly in float64. That distance is symmetric bit for bit, so
// lists built from it are consistent in both directions and reproducible.
//
// The k-NN filter runs on a packed copy of the rows (groups of 64 rows stored
// coordinate-major, built once on first use) with a kernel chosen once at
// start-up: AVX-512 FMA on ZMM registers where AVX512F is present, AVX2+FMA
// on other x86-64, plain Go on other architectures and with -tags purego.
// The kernels score four queries per pass (NearestBatch) and flag the rows
// under each query's running threshold with bit masks; TestKernelsAgree
// cross-checks every kernel the CPU can run against the plain-Go one.
package euclid
