package hamming

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bits-and-blooms/bitset"
)

// FuzzSearch builds a database from the fuzzer's bytes (short codes are
// expanded by repetition so that ties and equal substrings are frequent),
// then checks every strategy against brute force for k-NN and range search.
func FuzzSearch(f *testing.F) {
	f.Add([]byte{}, uint8(1), uint16(0), uint64(0))
	f.Add(bytes.Repeat([]byte{0xAA, 0x55}, 40), uint8(3), uint16(16), uint64(1))
	f.Add(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, 100), uint8(10), uint16(40), uint64(99))
	f.Add(bytes.Repeat([]byte{0xff}, 300), uint8(255), uint16(300), uint64(7))
	f.Fuzz(func(t *testing.T, data []byte, k uint8, radius uint16, seed uint64) {
		codes := fuzzCodes(data)
		r := rand.New(rand.NewPCG(seed, 1))
		q := Code{r.Uint64(), 0, 0, 0}
		if len(codes) > 0 {
			q = flip(r, codes[int(seed%uint64(len(codes)))], int(seed%60))
		}
		kk := int(k)%20 + 1
		rad := int(radius) % 300
		ref := bruteKNN(codes, q, kk, nil)
		refR := sortedCopy(bruteRange(codes, q, rad, nil))
		for name, s := range strategies(t, codes) {
			got, err := s.KNN(nil, q, kk, Options{})
			if err != nil || !slices.Equal(got, ref) {
				t.Fatalf("%s KNN(k=%d) = %v, %v; want %v", name, kk, got, err, ref)
			}
			got, err = s.KNN(nil, q, kk, Options{Ties: TiesRandom, Rand: r})
			if err != nil {
				t.Fatal(err)
			}
			checkRandomTies(t, got, ref, kk)
			gotR, err := s.Range(nil, q, rad, Options{})
			if err != nil || !slices.Equal(sortedCopy(gotR), refR) {
				t.Fatalf("%s Range(r=%d) has %d codes, want %d (%v)", name, rad, len(gotR), len(refR), err)
			}
		}
	})
}

// fuzzCodes makes up to 3000 codes of 4 bytes of input each: each input
// word seeds one 64-bit word through a tiny mixer, so similar inputs give
// similar codes.
func fuzzCodes(data []byte) []Code {
	var codes []Code
	for i := 0; i+4 <= len(data) && len(codes) < 3000; i += 4 {
		v := binary.LittleEndian.Uint32(data[i:])
		c := Code{uint64(v), uint64(v) << 32, uint64(v&0xff) * 0x0101010101010101, uint64(v >> 8)}
		codes = append(codes, c)
	}
	return codes
}

// FuzzWithout restricts a fuzzed database to a random subset (each code
// skipped with probability 1/(every+1), none for every = 0) and checks
// every query against the index over a copy of the codes left and against
// brute force (TestWithoutMatchesCopy's checks).
func FuzzWithout(f *testing.F) {
	f.Add([]byte{}, uint64(1), uint8(1))
	f.Add(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, 300), uint64(3), uint8(2))
	f.Add(bytes.Repeat([]byte{0xAA, 0x55}, 600), uint64(0xffff), uint8(0))
	f.Add(bytes.Repeat([]byte{0xff, 0, 0x0f}, 400), uint64(7), uint8(255))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, every uint8) {
		codes := fuzzCodes(data)
		r := rand.New(rand.NewPCG(seed, 2))
		var skip []int32
		excl := bitset.New(uint(len(codes)))
		for i := range codes {
			if every > 0 && r.IntN(int(every)+1) == 0 {
				skip = append(skip, int32(i))
			}
			if r.IntN(5) == 0 {
				excl.Set(uint(i))
			}
		}
		x, err := NewIndex(codes)
		if err != nil {
			t.Fatal(err)
		}
		y, err := x.Without(skip)
		if err != nil {
			t.Fatal(err)
		}
		ref := newCopyIndex(t, codes, skip)
		checkRankID(t, y, ref)
		for qi, q := range queriesFor(r, codes, 3) {
			matchNearest(t, y, ref, q, qi)
			matchKNN(t, y, ref, q, qi, excl)
			matchRange(t, y, ref, q, qi)
			matchHistogram(t, y, ref, q, qi)
		}
	})
}

func FuzzDecodeCodes(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 32))
	f.Add(make([]byte, 33))
	f.Add(bytes.Repeat([]byte{0x5a}, 96))
	f.Fuzz(func(t *testing.T, b []byte) {
		codes, err := DecodeCodes(b)
		if len(b)%CodeSize != 0 {
			if err == nil {
				t.Fatalf("%d bytes decoded without error", len(b))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(AppendBytes(nil, codes), b) {
			t.Fatal("re-encoding differs")
		}
	})
}
