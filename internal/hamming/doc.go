// Package hamming is WordVeil's exact search engine over 256-bit binary codes.
//
// A [Code] is four uint64 words; a database is a flat []Code. The package
// answers three questions, always exactly (the answer equals a brute-force
// scan, ties included):
//
//   - k nearest neighbours ([Index.KNN], [Index.Nearest]);
//   - every code within a radius ([Index.Range]);
//   - the same with some ids excluded (nearest-not-yet-visited chains).
//
// [Index.Without] restricts an index to a subset of its codes without
// copying them (a keyboard's output vocabulary: every word but an
// exclusion list): it keeps only the skipped ids and answers every query
// exactly as an index over a copy of the codes left would, order, ties
// and random draws included, with the original ids.
//
// Two strategies implement them: a linear scan ([Scan]) with XOR/popcount
// kernels chosen once at start-up for the CPU (AVX-512 VPOPCNTQ or POPCNT on
// amd64, NEON on arm64, plain Go elsewhere or with the purego build tag), and
// multi-index hashing ([MIH], Norouzi, Punjani and Fleet, CVPR 2012) with 16
// substrings of 16 bits, exact by the pigeonhole bound. [Index] plans between
// them per query, so callers never choose by hand.
//
// [Index.NearestBatch] answers Nearest for many queries in one pass over
// the codes (each block compared with up to [MaxBatch] queries while it is
// in cache; on AVX-512 a block transposed once serves every query), each
// answer exact with its ties broken uniformly, for callers with several
// words at hand. On AVX-512 an index that has answered a few full batches
// (a bulk job) keeps a transposed copy of its codes, as large as they are,
// so that later passes do not transpose each block again; other CPUs,
// and an index that never sees full batches (a keyboard's), never make it.
//
// Ties. With integer distances, ties are common. [TiesAll] returns every
// code tied at the k-th distance (so a result may hold more than k codes);
// [TiesRandom] returns exactly k, breaking ties at the boundary uniformly at
// random from a caller-supplied source. Mechanisms whose privacy analysis
// assumes an unbiased choice (BRR) must use TiesRandom: lowest-index
// tie-breaking skews outputs towards frequent words.
//
// Every Index method is safe for concurrent use.
package hamming
