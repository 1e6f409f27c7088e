package seeded

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// The streams every seeded caller depends on (mechanism's P_avg estimate,
// the CLI's -seed, the research module's results) must not change when the
// source moves: the first draws are pinned from math/rand/v2's ChaCha8 as
// mechanism.NewSeededSourceForEvaluation returned it before this package
// took it over.
func TestKeyStreamPinned(t *testing.T) {
	seven := [32]byte{7}
	cases := []struct {
		name string
		src  *rand.ChaCha8
		want []uint64
	}{
		{"Key(pavg), mechanism's P_avg estimate", Key([32]byte{'p', 'a', 'v', 'g'}), []uint64{0x206d926a68d3abb1, 0xcbef9e4d22b51722}},
		{"Source(7), the CLI's -seed 7", Source(7), []uint64{0x84986e8cad4420e}},
		{"Key(7) is Source(7)", Key(seven), []uint64{0x84986e8cad4420e}},
	}
	for _, c := range cases {
		for i, w := range c.want {
			if got := c.src.Uint64(); got != w {
				t.Errorf("%s: draw %d = %#x, want %#x", c.name, i, got, w)
			}
		}
	}
}

// Same key, same stream; another key, another stream; Source writes the
// seed little-endian into the key's first 8 bytes, Block the block's
// index into the next 8.
func TestKeyDeterministic(t *testing.T) {
	var k [32]byte
	binary.LittleEndian.PutUint64(k[:], 0x0102030405060708)
	kb := k
	binary.LittleEndian.PutUint64(kb[8:], 0x0a0b)
	cases := []struct {
		name string
		a, b *rand.ChaCha8
		same bool
	}{
		{"same key", Key([32]byte{'x'}), Key([32]byte{'x'}), true},
		{"other key", Key([32]byte{'x'}), Key([32]byte{'y'}), false},
		{"Source = Key(little-endian seed)", Source(0x0102030405060708), Key(k), true},
		{"Source(1) vs Source(2)", Source(1), Source(2), false},
		{"Block(seed, 0) = Source(seed)", Block(0x0102030405060708, 0), Source(0x0102030405060708), true},
		{"Block = Key(seed, block little-endian)", Block(0x0102030405060708, 0x0a0b), Key(kb), true},
		{"Block(7, 1) vs Source(7)", Block(7, 1), Source(7), false},
		{"Block(7, 1) vs Block(7, 2)", Block(7, 1), Block(7, 2), false},
		{"Block(7, 1) vs Block(8, 1)", Block(7, 1), Block(8, 1), false},
	}
	for _, c := range cases {
		eq := 0
		for range 16 {
			if c.a.Uint64() == c.b.Uint64() {
				eq++
			}
		}
		if got := eq == 16; got != c.same || (!c.same && eq != 0) {
			t.Errorf("%s: %d of 16 draws equal, want same=%v", c.name, eq, c.same)
		}
	}
}
