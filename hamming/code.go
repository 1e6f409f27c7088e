package hamming

import (
	ihamming "github.com/wordveil/wordveil/internal/hamming"
)

// Bits is the length of a Code in bits.
const Bits = ihamming.Bits

// Code is a 256-bit binary code: four 64-bit words, bit i (0 ≤ i < 256)
// being bit i%64 of word i/64, counting from the least significant bit.
// Stored as bytes (as a .wva asset and FAISS's uint8 rows hold it), a code
// is its four words in order, each little-endian, so bit i is bit i%8 of
// byte i/8. Its methods Bit(i) and SetBit(i, v) read and set one bit.
//
// It is the engine's code type itself (an alias, not a copy), so codes
// from package binaryembed, an index and the engine are one type.
type Code = ihamming.Code

// Distance returns the Hamming distance between a and b: the number of
// bits in which they differ, in [0, 256].
func Distance(a, b Code) int { return ihamming.Distance(a, b) }

// Kernel names the distance kernel this process uses: "avx512", "popcnt",
// "neon" or "generic" (chosen once at start-up from the CPU; "generic"
// with the purego build tag). Results never depend on it; speed does.
func Kernel() string { return ihamming.Kernel() }
