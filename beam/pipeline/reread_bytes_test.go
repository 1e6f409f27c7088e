package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// noseekFS is a file system for the tests: the local files under the
// scheme noseek://, read through readers that cannot seek (as Beam's gcs
// and s3 file systems' cannot), every byte read counted in noseekRead.
type noseekFS struct{}

const noseekScheme = "noseek://"

var noseekRead atomic.Int64

func init() {
	filesystem.Register("noseek", func(context.Context) filesystem.Interface { return noseekFS{} })
}

func (noseekFS) Close() error { return nil }

func (noseekFS) List(_ context.Context, glob string) ([]string, error) {
	m, err := filepath.Glob(strings.TrimPrefix(glob, noseekScheme))
	for i := range m {
		m[i] = noseekScheme + m[i]
	}
	return m, err
}

func (noseekFS) OpenRead(_ context.Context, name string) (io.ReadCloser, error) {
	f, err := os.Open(strings.TrimPrefix(name, noseekScheme))
	if err != nil {
		return nil, err
	}
	return noseekFile{f}, nil
}

func (noseekFS) OpenWrite(context.Context, string) (io.WriteCloser, error) {
	return nil, errors.New("noseek: read only")
}

func (noseekFS) Size(_ context.Context, name string) (int64, error) {
	fi, err := os.Stat(strings.TrimPrefix(name, noseekScheme))
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// noseekFile is a file without its Seek, counting what it reads.
type noseekFile struct{ f *os.File }

func (r noseekFile) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	noseekRead.Add(int64(n))
	return n, err
}

func (r noseekFile) Close() error { return r.f.Close() }

// The re-read of a file that cannot seek (a compressed file, a remote
// one) reads it once, whatever its size: here ten segments, with one
// granted record near the end of each (without placeholders) or every
// record withheld or granted (with them), the bytes read from the file
// are at most its size plus a read buffer. Re-read per segment from the
// file's start, segment k would cost k MiB: some 5.5 times the file.
func TestRereadReadsANonSeekableFileOnce(t *testing.T) {
	var b strings.Builder
	n := 0
	for b.Len() < 9*segmentBytes+segmentBytes/2 { // ten segments
		n++
		fmt.Fprintf(&b, "{\"user\":\"u%d\",\"text\":\"the cat sat on mat number %d\"}\n", n%13, n)
	}
	perSegment := int64(n / 10) // about one granted record per segment, late in it
	for _, gz := range []bool{false, true} {
		name := "in.jsonl"
		if gz {
			name += ".gz"
		}
		local := filepath.Join(t.TempDir(), name)
		writeInput(t, local, b.String())
		fi, err := os.Stat(local)
		if err != nil {
			t.Fatal(err)
		}
		size := fi.Size()
		for _, overCap := range []string{OverCapDrop, OverCapPlaceholder} {
			t.Run(fmt.Sprintf("%s/%s", name, overCap), func(t *testing.T) {
				path := noseekScheme + local
				noseekRead.Store(0)
				groups := readSlots(t, path, func(line int64) bool { return line%perSegment == perSegment-3 })
				if read := noseekRead.Load(); read < size || read > size+lineBuf {
					t.Fatalf("the first read read %d bytes of a %d-byte file", read, size)
				}
				noseekRead.Store(0)
				out, err := reread(t, groups, overCap)
				if err != nil {
					t.Fatal(err)
				}
				wantOut := n / int(perSegment)
				if overCap == OverCapPlaceholder {
					wantOut = n
				}
				if len(out) != wantOut {
					t.Fatalf("%d records out, want %d", len(out), wantOut)
				}
				read := noseekRead.Load()
				t.Logf("the re-read read %d bytes of a %d-byte file", read, size)
				if read > size+lineBuf {
					t.Fatalf("the re-read read %d bytes of a %d-byte file (%.1f times it)", read, size, float64(read)/float64(size))
				}
			})
		}
	}
}
