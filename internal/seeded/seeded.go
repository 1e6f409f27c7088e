// Package seeded is the one place a deterministic random source is made:
// Key and Source build a ChaCha8 generator from a fixed key, and Use makes
// a core.Privatizer draw from one. It is for tests and reproducible
// evaluation only (the CLI's -seed flag and stats, the research module).
// Anyone who knows the key can reproduce every draw and so invert the
// privatization, which is why the product API has no seed and this package
// is internal. The one production use is package mechanism's estimate of a
// public constant of the asset (the mean list distance), which is not
// privacy noise; the layer test (internal/tools/layers) names every
// package allowed to import this one outside tests.
//
// Package wordveil sets Use when it is initialized; this package imports
// nothing of the module, so that package core can import it.
package seeded

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
)

// Use makes p, a *core.Privatizer, draw every later call from src, one
// call at a time. Package wordveil sets it in its init function.
var Use = func(p any, src rand.Source) error {
	return errors.New("seeded: package core is not linked in")
}

// Key returns the ChaCha8 generator keyed by key: the same key gives the
// same stream on every platform. Not safe for concurrent use.
func Key(key [32]byte) *rand.ChaCha8 {
	return rand.NewChaCha8(key)
}

// Source returns Key's generator for seed written little-endian in the
// first 8 bytes of the key, the rest zero: the CLI's -seed.
func Source(seed uint64) *rand.ChaCha8 {
	var k [32]byte
	binary.LittleEndian.PutUint64(k[:], seed)
	return Key(k)
}
