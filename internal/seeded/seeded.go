// Package seeded is the one place a deterministic random source is made:
// Key, Source and Block build a ChaCha8 generator from a fixed key. It is
// for tests and reproducible evaluation only (core.UseEvaluationSeed and
// core.PrivatizeEvaluationBlock, which the CLI's and Beam's -seed use,
// stats, the research module). Anyone who knows the key can reproduce
// every draw and so invert the privatization,
// which is why the product API has no seed setting and this package is
// internal. The one production use is package mechanism's estimate of a
// public constant of the asset (the mean list distance), which is not
// privacy noise; the layer test (internal/tools/layers) names every
// package allowed to import this one outside tests.
//
// It defines the streams and nothing else: it imports nothing of the
// module and reaches no privatizer (package core takes a seed through
// UseEvaluationSeed or PrivatizeEvaluationBlock, explicit calls, not a
// hook set from here).
package seeded

import (
	"encoding/binary"
	"math/rand/v2"
)

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

// Block returns Key's generator for seed written little-endian in the
// first 8 bytes of the key and block in the next 8, the rest zero: the
// stream of the block-th block of a seeded run (the CLI's -seed, whose
// blocks may be privatized in any order on several cores). Block(seed, 0)
// is Source(seed), so a run of one block draws what it always drew.
func Block(seed, block uint64) *rand.ChaCha8 {
	var k [32]byte
	binary.LittleEndian.PutUint64(k[:], seed)
	binary.LittleEndian.PutUint64(k[8:], block)
	return Key(k)
}
