package sample

import (
	crand "crypto/rand"
	"math/rand/v2"
)

// SecureSource returns a ChaCha8 generator keyed with 32 bytes from
// crypto/rand: the one unpredictable source of the module, which
// mechanism.NewSecureSource (privatization) and the public hamming
// package (random tie-breaking without a caller's source) hand out. A
// source is not safe for concurrent use; give each goroutine its own.
func SecureSource() *rand.ChaCha8 {
	var seed [32]byte
	// Since Go 1.24 crypto/rand.Read never returns an error: it aborts the
	// program if the OS cannot supply entropy, which is the right outcome
	// for a privacy product (there is no safe degraded mode).
	_, _ = crand.Read(seed[:])
	return rand.NewChaCha8(seed)
}
