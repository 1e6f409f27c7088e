// Package hamming is exact search over 256-bit binary codes: the code
// type, an index over a slice of codes, the nearest code to a query with
// ties broken uniformly at random, the k nearest, every code within a
// radius, and the same over the index minus a set of ids.
//
//	x, err := hamming.NewIndex(codes)         // codes []hamming.Code, used in place
//	n, err := x.Nearest(q, nil)               // one nearest code, uniform among ties
//	ns, err := x.KNN(q, 10, nil)              // the 10 nearest, by (distance, id)
//	ns, err = x.Range(q, 16)                  // every code within 16 bits
//	y, err := x.Without([]int{3, 7})          // the same index, ids 3 and 7 never returned
//
// It is a small API over WordVeil's search engine (the module's
// internal/hamming): XOR/popcount kernels chosen once for the CPU
// (AVX-512 VPOPCNTQ or POPCNT on amd64, NEON on arm64, plain Go elsewhere
// or with the purego build tag; [Kernel] names the one in use), a linear
// scan, multi-index hashing (Norouzi, Punjani and Fleet, CVPR 2012: 16
// tables of 16-bit substrings, exact by the pigeonhole bound) and a
// planner that chooses between the two per query. The strategy is never
// the caller's concern: both are exact and give the same answers.
//
// # Guarantees
//
//   - Exact. Every answer is the one a brute-force scan of every code
//     would give: no approximation, no recall below 1, ties included.
//     Approximate multi-index hashing, such as FAISS's
//     IndexBinaryMultiHash with a fixed flip radius, misses neighbours
//     beyond that radius: docs/BENCHMARKS.md ("Side by side with FAISS")
//     measures it beside FAISS's exact IndexBinaryFlat and this engine on
//     the same GloVe codes, recall included, with the commands
//     (bench/faiss_compare.py).
//   - Uniform ties. [Index.Nearest] returns each code at the minimum
//     distance with equal probability, and [Index.KNN] keeps a uniformly
//     random subset of the codes tied at the k-th distance, drawn from the
//     caller's rand.Source; with a nil source, from a ChaCha8 generator
//     keyed from crypto/rand for that call. Breaking ties by lowest id
//     instead would favour the codes stored first (in a vocabulary, the
//     frequent words), which biases a privacy mechanism built on top.
//   - Ordered results. KNN and Range return neighbours sorted by
//     distance, then id.
//   - Checked arguments. A k below 1, a radius outside [0, 256], an id
//     outside the index, or a nil or zero *Index gives an error wrapping
//     [ErrInvalid]; nothing panics.
//   - Concurrency. Every method of an Index is safe for concurrent use; a
//     rand.Source passed to it is not (give each goroutine its own, or
//     pass nil).
//
// # What it does not do
//
//   - It does not copy the codes: NewIndex uses the slice in place, and
//     the caller must not modify it while the Index (or one made from it by
//     Without) is in use.
//   - It does not add or remove codes: an index is fixed. Without excludes
//     ids without copying; build a new index for a changed set.
//   - Memory. The multi-index tables are built on the first query that
//     needs them (a near one; a far query, tens of bits away from
//     everything, is always answered by a scan): about 4.2 MB + 96 bytes
//     per code (9 MB at 50,000 codes, 23 MB at 200,000), shared by every
//     index Without makes from the same index.
//   - Without is priced in time: its index still computes the distance of
//     every code, excluded ones included. It suits excluding a few hundred
//     ids of tens of thousands; for a small subset, index a copy of it.
//   - At most 2^31−1 codes per index.
package hamming
