package wva

import (
	"bytes"
	"errors"
	"io"

	"github.com/klauspost/compress/flate"
)

// compress returns the DEFLATE form of raw (RFC 1951, one raw stream, no
// zlib or gzip wrapper) if it is worth storing: smaller than raw and within
// MaxExpansion of it. Otherwise it returns nil and the section is stored
// raw.
//
// The codec is github.com/klauspost/compress/flate, a drop-in for the
// standard library's compress/flate that writes and reads the same format:
// raw DEFLATE is DEFLATE, so a section compressed by either decodes with
// the other (compress_test.go checks both ways), and assets written before
// the switch still decode. The level is fixed (best compression) so that
// the same input gives the same bytes. The output is stable for a given
// version of the package, pinned in go.mod; a version that changes its
// encoder may change the compressed bytes (never what they decode to).
// The default asset compresses nothing (format 3 stores every section a
// mechanism reads raw, to use it where it lies), so its bytes do not
// depend on the codec. DEFLATE is used rather than a richer codec because
// on the word table it is as small: the default asset's VOCAB is 205,519
// bytes as DEFLATE against 205,536 as zstd at its best setting.
func compress(raw []byte) []byte {
	if len(raw) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.Grow(len(raw) / 2)
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		return nil // unreachable: the level is valid
	}
	if _, err := w.Write(raw); err != nil {
		return nil
	}
	if err := w.Close(); err != nil {
		return nil
	}
	z := b.Bytes()
	if len(z) >= len(raw) || uint64(len(raw)) > maxExpansion*uint64(len(z)) {
		return nil
	}
	return z
}

// decompress decodes one DEFLATE section of exactly rawLen bytes into a
// buffer allocated at rawLen (already checked against MaxExpansion), so a
// stream that produces more fails instead of growing the buffer. The
// stream must end exactly at the end of the stored bytes: trailing bytes,
// a short stream and a long one are all corrupt.
func decompress(kind Kind, stored []byte, rawLen uint64) ([]byte, error) {
	part := "section " + kind.String()
	br := bytes.NewReader(stored) // an io.ByteReader: flate reads no further than it needs
	zr := flate.NewReader(br)
	defer zr.Close()
	out := make([]byte, rawLen)
	if _, err := io.ReadFull(zr, out); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, corruptf(part, "decompressed to fewer than the %d bytes the table says", rawLen)
		}
		return nil, corruptf(part, "deflate: %v", err)
	}
	var one [1]byte
	switch n, err := zr.Read(one[:]); {
	case n > 0:
		return nil, corruptf(part, "decompressed to more than the %d bytes the table says", rawLen)
	case err != io.EOF:
		return nil, corruptf(part, "deflate: %v", err)
	}
	if br.Len() != 0 {
		return nil, corruptf(part, "%d bytes after the end of the deflate stream", br.Len())
	}
	return out, nil
}
