package mechanism

import (
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/sample"
)

// NewSecureSource returns a ChaCha8 generator keyed with 32 bytes from
// crypto/rand (sample.SecureSource): the only source privatization may
// use. A deterministic source (tests, evaluation) comes from
// internal/seeded only. A source is not safe for concurrent use; give each
// goroutine its own.
func NewSecureSource() *rand.ChaCha8 { return sample.SecureSource() }
