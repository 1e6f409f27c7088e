package pipeline

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
)

// readFn sends every record's ref once, under its user, in batches of at
// most refBatch refs read: one element per user per batch, each counting
// its refs.
func TestReadBatchesRefs(t *testing.T) {
	const users, n = 7, 2*refBatch + 100
	path := filepath.Join(t.TempDir(), "in.jsonl")
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "{\"user\":\"u%d\",\"text\":\"word\"}\n", i*i%users)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rfn := &readFn{Format: FormatJSONL, MaxRecordBytes: 1 << 10}
	if err := rfn.Setup(); err != nil {
		t.Fatal(err)
	}
	defer rfn.Teardown()
	seen := map[int64]string{}
	elements := 0
	err := rfn.ProcessElement(context.Background(), fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path}},
		func(user string, g grants) {
			elements++
			if g.Records != len(g.Refs) || len(g.Refs) == 0 || len(g.Refs) > refBatch {
				t.Errorf("%s: an element of %d refs counting %d", user, len(g.Refs), g.Records)
			}
			for _, r := range g.Refs {
				if u, dup := seen[r.Line]; dup {
					t.Errorf("line %d sent twice (%s, %s)", r.Line, u, user)
				}
				seen[r.Line] = user
				if want := fmt.Sprintf("u%d", (r.Line-1)*(r.Line-1)%users); user != want || r.Words != 1 {
					t.Errorf("line %d: user %s, %d words; want %s, 1", r.Line, user, r.Words, want)
				}
			}
		}, func(string, slotBatch) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != n {
		t.Errorf("%d of %d records sent", len(seen), n)
	}
	if max := users * (n/refBatch + 1); elements > max {
		t.Errorf("%d elements, want at most %d", elements, max)
	}
}

// TestLineSum: a line's checksum is the first 16 bytes of its SHA-256,
// whatever the lines hashed before it (the hash and buffer are reused),
// long lines included.
func TestLineSum(t *testing.T) {
	for _, l := range []string{"", "a", `{"user":"u","text":"hello"}`, strings.Repeat("x", 3*lineBuf), "b"} {
		want := sha256.Sum256([]byte(l))
		if got := lineSum(l); got != lineChecksum(want[:16]) {
			t.Errorf("lineSum of %d bytes = %x, want %x", len(l), got, want[:16])
		}
	}
}
