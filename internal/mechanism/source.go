package mechanism

import (
	crand "crypto/rand"
	"math/rand/v2"
)

// NewSecureSource returns a ChaCha8 generator keyed with 32 bytes from
// crypto/rand: the only source privatization may use. A deterministic
// source (tests, evaluation) comes from internal/seeded only. A source is not
// safe for concurrent use; give each goroutine its own.
func NewSecureSource() *rand.ChaCha8 {
	var seed [32]byte
	// Since Go 1.24 crypto/rand.Read never returns an error: it aborts the
	// program if the OS cannot supply entropy, which is the right outcome
	// for a privacy product (there is no safe degraded mode).
	_, _ = crand.Read(seed[:])
	return rand.NewChaCha8(seed)
}
