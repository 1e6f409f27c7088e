// Package seeded makes a wordveil.Privatizer draw from a deterministic
// source, for reproducible evaluation only: the CLI's -seed flag and the
// research module. Anyone who knows the seed can reproduce every draw and
// so invert the privatization, which is why the product API has no seed
// and this package is internal.
//
// Package wordveil sets Use when it is initialized; this package imports
// nothing of the module, so that the root package can import it.
package seeded

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
)

// Use makes p, a *wordveil.Privatizer, draw every later call from src, one
// call at a time. Package wordveil sets it in its init function.
var Use = func(p any, src rand.Source) error {
	return errors.New("seeded: package wordveil is not linked in")
}

// Source returns the ChaCha8 generator keyed by seed (little-endian in the
// first 8 bytes of the key, the rest zero): the CLI's -seed.
func Source(seed uint64) *rand.ChaCha8 {
	var k [32]byte
	binary.LittleEndian.PutUint64(k[:], seed)
	return rand.NewChaCha8(k)
}
