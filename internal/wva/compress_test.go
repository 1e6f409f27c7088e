package wva

import (
	"bytes"
	stdflate "compress/flate"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// compressInputs are sections of the shapes an asset holds: words (a word
// table), small integers (ids), float32 vectors, and random bytes, which
// no DEFLATE encoder shrinks. None shrinks more than maxExpansion, beyond
// which compress stores a section raw.
func compressInputs() []struct {
	name string
	raw  []byte
} {
	ids := make([]byte, 0, 4*5000)
	for i := range 5000 {
		ids = append(ids, byte(i), byte(i>>8), 0, 0)
	}
	r := rand.New(rand.NewPCG(35, 35))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	var words strings.Builder
	for range 3000 {
		words.WriteString(vocabWords[r.IntN(len(vocabWords))])
	}
	floats := make([]byte, 0, 4*4096)
	for range 4096 {
		// float32s of one sign and exponent, 8 bits of mantissa: the shape
		// of quantized vectors, compressible but far from 64×.
		floats = append(floats, 0, byte(r.Uint32()), 0x80, 0x3f)
	}
	return []struct {
		name string
		raw  []byte
	}{
		{"words", []byte(words.String())},
		{"ids", ids},
		{"floats", floats},
		{"random", random},
		{"one byte", []byte{7}},
	}
}

var vocabWords = strings.Fields("the of and to a in is you that it was for on are with as his they be at one have this from or had by not word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find")

// stdDeflate compresses raw with the standard library at level.
func stdDeflate(t *testing.T, raw []byte, level int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := stdflate.NewWriter(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestDecompressReadsStandardLibraryDeflate: a section compressed by the
// standard library's compress/flate (every asset written before the
// switch to klauspost/compress), at any level, decodes to its bytes.
func TestDecompressReadsStandardLibraryDeflate(t *testing.T) {
	levels := []int{stdflate.NoCompression, stdflate.BestSpeed, stdflate.DefaultCompression, stdflate.BestCompression, stdflate.HuffmanOnly}
	for _, in := range compressInputs() {
		for _, level := range levels {
			z := stdDeflate(t, in.raw, level)
			got, err := decompress(kindFloats, z, uint64(len(in.raw)))
			if err != nil {
				t.Fatalf("%s, level %d: %v", in.name, level, err)
			}
			if !bytes.Equal(got, in.raw) {
				t.Fatalf("%s, level %d: decoded bytes differ", in.name, level)
			}
		}
	}
}

// TestCompressReadByStandardLibrary: what compress writes is plain raw
// DEFLATE, which the standard library's reader decodes to the same bytes,
// ending exactly at the end of the stream; incompressible input is not
// compressed at all.
func TestCompressReadByStandardLibrary(t *testing.T) {
	for _, in := range compressInputs() {
		z := compress(in.raw)
		if in.name == "random" || in.name == "one byte" {
			if z != nil {
				t.Fatalf("%s: compressed to %d bytes, want stored raw", in.name, len(z))
			}
			continue
		}
		if z == nil {
			t.Fatalf("%s: not compressed", in.name)
		}
		br := bytes.NewReader(z)
		got, err := io.ReadAll(stdflate.NewReader(br))
		if err != nil {
			t.Fatalf("%s: standard library: %v", in.name, err)
		}
		if !bytes.Equal(got, in.raw) || br.Len() != 0 {
			t.Fatalf("%s: standard library decoded %d bytes (want %d), %d left over", in.name, len(got), len(in.raw), br.Len())
		}
		// And the round trip through our own reader.
		back, err := decompress(kindFloats, z, uint64(len(in.raw)))
		if err != nil || !bytes.Equal(back, in.raw) {
			t.Fatalf("%s: round trip: %v", in.name, err)
		}
	}
}

// TestDecompressRefusesDamagedStreams is the negative control: a stream
// from either encoder with a flipped byte, cut short or with a byte
// appended does not decode to the declared bytes.
func TestDecompressRefusesDamagedStreams(t *testing.T) {
	raw := compressInputs()[0].raw
	for _, enc := range []struct {
		name string
		z    []byte
	}{{"ours", compress(raw)}, {"standard library", stdDeflate(t, raw, stdflate.BestCompression)}} {
		cases := []struct {
			name   string
			stream []byte
			rawLen uint64
		}{
			{"cut short", enc.z[:len(enc.z)/2], uint64(len(raw))},
			{"byte appended", append(bytes.Clone(enc.z), 0), uint64(len(raw))},
			{"declared longer", enc.z, uint64(len(raw)) + 1},
			{"declared shorter", enc.z, uint64(len(raw)) - 1},
			{"garbage", bytes.Repeat([]byte{0xff}, len(enc.z)), uint64(len(raw))},
		}
		for _, c := range cases {
			got, err := decompress(kindFloats, c.stream, c.rawLen)
			if err == nil && bytes.Equal(got, raw) {
				t.Errorf("%s, %s: decoded without error", enc.name, c.name)
			} else if err == nil {
				t.Errorf("%s, %s: decoded to other bytes without error", enc.name, c.name)
			}
		}
	}
}

// TestDecompressMemory: decompressing allocates the output and at most
// inflaterSize more, the bound maxMemory charges a compressed section.
func TestDecompressMemory(t *testing.T) {
	raw := compressInputs()[0].raw
	z := compress(raw)
	best := uint64(1 << 62)
	for range 5 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := decompress(kindFloats, z, uint64(len(raw))); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		best = min(best, after.TotalAlloc-before.TotalAlloc)
	}
	if limit := uint64(len(raw)) + inflaterSize; best > limit {
		t.Fatalf("decompress allocated %d bytes, limit %d (output %d + inflaterSize %d)", best, limit, len(raw), inflaterSize)
	}
	t.Logf("decompress allocated %d bytes beyond its %d-byte output", best-uint64(len(raw)), len(raw))
}
