package wva

import (
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// compress returns the zstd form of raw if it is worth storing: smaller
// than raw and within MaxExpansion of it. Otherwise it returns nil and the
// section is stored raw.
//
// The encoder settings are fixed (best compression, one goroutine, no
// frame checksum — the section CRC covers the stored bytes — and the
// content size in the frame header) so that the same input gives the same
// bytes. Output is stable for a given klauspost/compress version; a version
// bump may change the compressed bytes (never what they decode to).
func compress(enc *zstd.Encoder, raw []byte) []byte {
	if len(raw) == 0 {
		return nil
	}
	z := enc.EncodeAll(raw, make([]byte, 0, len(raw)))
	if len(z) >= len(raw) || uint64(len(raw)) > maxExpansion*uint64(len(z)) {
		return nil
	}
	return z
}

// encoder returns the package's zstd encoder, made on first use and shared
// (EncodeAll is safe for concurrent use): the best-compression encoder
// allocates about 36 MB of tables, too much to make per Marshal call.
// Only writers (the asset builder, tests) ever create it.
var encoder = sync.OnceValues(func() (*zstd.Encoder, error) {
	return zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedBestCompression),
		zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderCRC(false),
		zstd.WithSingleSegment(true),
		zstd.WithZeroFrames(true),
		// A 1 MiB window covers a 50k-word vocabulary (450 KB raw); the
		// window is part of the format's output, so it is fixed here.
		zstd.WithWindowSize(1<<20))
})

// decompressor decodes the zstd sections of one file. The decoder is made
// per Decode call rather than shared, so that nothing it allocates outlives
// the load and counts against the app's heap.
type decompressor struct {
	dec *zstd.Decoder
}

// decompress decodes one zstd section of exactly rawLen bytes. The output
// buffer is allocated at rawLen, already checked against MaxExpansion, and
// the decoder is limited to that capacity (WithDecodeAllCapLimit), so a
// frame that claims or produces more fails instead of growing the buffer;
// the window limit keeps a frame from asking for a larger history buffer.
// (WithDecoderMaxMemory is not used: it refuses frames whose content size
// is close to the limit, not only those above it.)
func (d *decompressor) decompress(kind Kind, stored []byte, rawLen uint64, maxRaw uint64) ([]byte, error) {
	part := "section " + kind.String()
	if d.dec == nil {
		dec, err := zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecodeAllCapLimit(true),
			zstd.WithDecoderMaxWindow(max(maxRaw, zstd.MinWindowSize)))
		if err != nil {
			return nil, fmt.Errorf("wva: %s: zstd decoder: %w", part, err)
		}
		d.dec = dec
	}
	out, err := d.dec.DecodeAll(stored, make([]byte, 0, rawLen))
	if err != nil {
		return nil, corruptf(part, "zstd: %v", err)
	}
	if uint64(len(out)) != rawLen {
		return nil, corruptf(part, "decompressed to %d bytes, table says %d", len(out), rawLen)
	}
	return out, nil
}

func (d *decompressor) close() {
	if d.dec != nil {
		d.dec.Close()
	}
}
