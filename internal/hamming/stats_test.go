package hamming

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// naiveBitCounts counts each bit code by code.
func naiveBitCounts(codes []Code) (ones [Bits]int) {
	for _, c := range codes {
		for i := range Bits {
			if c.Bit(i) {
				ones[i]++
			}
		}
	}
	return ones
}

// pairwiseMean is P_avg by definition: the sum of the distances over
// ordered pairs of distinct codes, divided by their number.
func pairwiseMean(codes []Code) float64 {
	n := len(codes)
	if n < 2 {
		return 0
	}
	sum := 0
	for i := range codes {
		for j := range codes {
			if i != j {
				sum += Distance(codes[i], codes[j])
			}
		}
	}
	return float64(sum) / float64(n*(n-1))
}

// meanDistanceBefore is MeanDistance as it was before bitCounts (a loop
// over the set bits), kept as the reference its result must equal to the
// last bit.
func meanDistanceBefore(codes []Code) float64 {
	n := len(codes)
	if n < 2 {
		return 0
	}
	var ones [Bits]int
	for i := range codes {
		for w, word := range codes[i] {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				ones[w*64+b]++
				word &= word - 1
			}
		}
	}
	total := 0.0
	for _, c := range ones {
		total += 2 * float64(c) * float64(n-c)
	}
	return total / (float64(n) * float64(n-1))
}

func allOnes(n int) []Code {
	out := make([]Code, n)
	for i := range out {
		out[i] = Code{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	}
	return out
}

// TestBitCountsExact: the carry-save counts equal the naive ones around
// every boundary: a group of 16, the lanes' flush after 255 groups (4080
// codes), and codes all ones, which fill every lane to its limit (a lane
// emptied one group late overflows here).
func TestBitCountsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 2))
	flush := maxLaneGroups * 16
	cases := []struct {
		name  string
		codes []Code
	}{
		{"none", nil},
		{"one", randomCodes(r, 1)},
		{"15", randomCodes(r, 15)},
		{"16", randomCodes(r, 16)},
		{"17", randomCodes(r, 17)},
		{"33", clusteredCodes(r, 33)},
		{"flush-1", randomCodes(r, flush-1)},
		{"flush", randomCodes(r, flush)},
		{"flush+1", randomCodes(r, flush+1)},
		{"ones-flush+16", allOnes(flush + 16)},
		{"ones-3flush+9", allOnes(3*flush + 9)},
		{"clustered-10k", clusteredCodes(r, 10007)},
	}
	for _, c := range cases {
		if got, want := bitCounts(c.codes), naiveBitCounts(c.codes); got != want {
			t.Errorf("%s: bitCounts differs from the naive count", c.name)
		}
	}
}

// TestMeanDistanceExact: equal, to the last bit, to the pairwise mean on
// small sets and to the earlier bit-by-bit implementation on large ones.
func TestMeanDistanceExact(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{0, 1, 2, 3, 16, 50, 400} {
		codes := clusteredCodes(r, n)
		if got, want := MeanDistance(codes), pairwiseMean(codes); got != want {
			t.Fatalf("n=%d: MeanDistance %v, pairwise %v", n, got, want)
		}
	}
	sizes := []int{4096, 50000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, n := range sizes {
		for _, codes := range [][]Code{randomCodes(r, n), clusteredCodes(r, n+3)} {
			if got, want := MeanDistance(codes), meanDistanceBefore(codes); got != want {
				t.Fatalf("n=%d: MeanDistance %v, before %v", len(codes), got, want)
			}
		}
	}
}

// FuzzMeanDistance: MeanDistance equals the pairwise mean exactly, on
// sets of up to 64 codes made from the fuzzer's bytes (8 bytes a word,
// repeated, so equal words and codes are common).
func FuzzMeanDistance(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add(make([]byte, 200))
	f.Fuzz(func(t *testing.T, data []byte) {
		var codes []Code
		for i := 0; i+8 <= len(data) && len(codes) < 64; i += 8 {
			v := binary.LittleEndian.Uint64(data[i:])
			codes = append(codes, Code{v, ^v, v * 0x9e3779b97f4a7c15, v >> 3})
		}
		if got, want := MeanDistance(codes), pairwiseMean(codes); got != want {
			t.Fatalf("%d codes: MeanDistance %v, pairwise %v", len(codes), got, want)
		}
	})
}

// BenchmarkMeanDistance: P_avg of 50,000 random codes (the default asset's
// size), now and as it was computed before (bit by bit).
func BenchmarkMeanDistance(b *testing.B) {
	codes := randomCodes(rand.New(rand.NewPCG(1, 2)), 50000)
	for _, f := range []struct {
		name string
		f    func([]Code) float64
	}{{"carry-save", MeanDistance}, {"bit-by-bit", meanDistanceBefore}} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				f.f(codes)
			}
		})
	}
}
