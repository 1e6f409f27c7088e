package pipeline

import (
	"crypto/sha256"
	"encoding/binary"
)

// RecordSeed is the seed of one record's stream in a seeded run
// (Options.Seed, evaluation only): the first 8 bytes, little-endian, of
// SHA-256 over a domain string, seed, and the record's user, source and
// line, each length-prefixed. Each record draws from its own stream, so a
// seeded run's output does not depend on how a runner splits, orders or
// retries the work, and a record is reproduced on its own by the CLI:
//
//	wordveil privatize -seed <RecordSeed(seed, user, source, line)> [the same engine flags]
//
// given the record's text as its one input line (the pipeline's tests
// check exactly that). Anyone who knows seed can reproduce every draw.
func RecordSeed(seed uint64, user, source string, line int64) uint64 {
	h := sha256.New()
	var n [8]byte
	put := func(x uint64) {
		binary.LittleEndian.PutUint64(n[:], x)
		h.Write(n[:])
	}
	h.Write([]byte("wordveil/beam record seed v1\x00"))
	put(seed)
	put(uint64(len(user)))
	h.Write([]byte(user))
	put(uint64(len(source)))
	h.Write([]byte(source))
	put(uint64(line))
	s := binary.LittleEndian.Uint64(h.Sum(nil))
	if s == 0 {
		s = 1 // the CLI reads -seed 0 as "no seed"
	}
	return s
}
