package wva

import "math/bits"

// sipKey is a SipHash-2-4 key (two little-endian 64-bit halves).
type sipKey struct{ k0, k1 uint64 }

// sipHash is SipHash-2-4 (Aumasson and Bernstein, 2012) of s under key.
// The word index hashes with it, under a random key per load, because it
// is a keyed pseudorandom function: without the key, nobody can build a
// vocabulary whose words collide, so the index stays linear-time for any
// asset file, crafted ones included.
func sipHash(key sipKey, s string) uint64 {
	v0 := key.k0 ^ 0x736f6d6570736575
	v1 := key.k1 ^ 0x646f72616e646f6d
	v2 := key.k0 ^ 0x6c7967656e657261
	v3 := key.k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13) ^ v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16) ^ v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21) ^ v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17) ^ v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	n := len(s)
	for len(s) >= 8 {
		m := le64(s)
		v3 ^= m
		round()
		round()
		v0 ^= m
		s = s[8:]
	}
	// The last block: the remaining bytes, little-endian, and the length
	// (mod 256) in the top byte.
	b := uint64(n) << 56
	for i := len(s) - 1; i >= 0; i-- {
		b |= uint64(s[i]) << (8 * i)
	}
	v3 ^= b
	round()
	round()
	v0 ^= b
	v2 ^= 0xff
	round()
	round()
	round()
	round()
	return v0 ^ v1 ^ v2 ^ v3
}

// le64 reads the first 8 bytes of s as a little-endian integer (no copy of
// s into a byte slice).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
