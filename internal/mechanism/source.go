package mechanism

import (
	crand "crypto/rand"
	"math/rand/v2"
)

// NewSecureSource returns a ChaCha8 generator keyed with 32 bytes from
// crypto/rand: the only source production code may use. A source is not
// safe for concurrent use; give each goroutine its own.
func NewSecureSource() *rand.ChaCha8 {
	var seed [32]byte
	// Since Go 1.24 crypto/rand.Read never returns an error: it aborts the
	// program if the OS cannot supply entropy, which is the right outcome
	// for a privacy product (there is no safe degraded mode).
	_, _ = crand.Read(seed[:])
	return rand.NewChaCha8(seed)
}

// NewSeededSourceForEvaluation returns a ChaCha8 generator with a fixed
// seed, for tests and reproducible evaluation runs. NEVER use it in
// production or expose it through the mobile API: anyone who knows the seed
// can undo the privatization. Not safe for concurrent use.
func NewSeededSourceForEvaluation(seed [32]byte) *rand.ChaCha8 {
	return rand.NewChaCha8(seed)
}
