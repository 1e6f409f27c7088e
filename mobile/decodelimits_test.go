package mobile

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/internal/wva"
)

// TestOpenFromFileExpansionBomb: the default asset with its VOCAB
// section marked compressed and declaring 64 times its stored length
// (49 MB) is refused by OpenPrivatizerFromFile with an error naming the
// section (format 3 stores VOCAB raw, so nothing is inflated), and
// opening it allocates at most the file and the decoding budget
// (wva.DefaultMaxDecodeMemory), the bound docs/ASSET_FORMAT.md states.
func TestOpenFromFileExpansionBomb(t *testing.T) {
	b := append([]byte(nil), assets.DefaultBytes()...)
	hlen := binary.LittleEndian.Uint32(b[12:])
	nsec := binary.LittleEndian.Uint32(b[16:])
	table := 24 + hlen
	crcAt := table + 40*nsec
	patched := false
	for i := range nsec {
		e := b[table+40*i:]
		if binary.LittleEndian.Uint32(e[0:]) == 1 { // VOCAB
			binary.LittleEndian.PutUint32(e[4:], 1) // DEFLATE
			binary.LittleEndian.PutUint64(e[24:], 64*binary.LittleEndian.Uint64(e[16:]))
			patched = true
		}
	}
	if !patched {
		t.Fatal("no VOCAB section in the default asset")
	}
	binary.LittleEndian.PutUint32(b[crcAt:], crc32.Checksum(b[:crcAt], crc32.MakeTable(crc32.Castagnoli)))
	path := filepath.Join(t.TempDir(), "bomb.wva")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	p, err := OpenPrivatizerFromFile(path, &Config{})
	runtime.ReadMemStats(&m1)
	if err == nil || p != nil {
		t.Fatal("a VOCAB section declaring 64× its size was accepted")
	}
	if !strings.Contains(err.Error(), "VOCAB") || codeOf(err) != CodeCorruptAsset {
		t.Fatalf("error %q: want WV_CORRUPT_ASSET naming the section", err)
	}
	got := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("%d-byte file: %v; %d bytes allocated", len(b), err, got)
	if limit := uint64(len(b)) + wva.DefaultMaxDecodeMemory; got > limit {
		t.Fatalf("opening allocated %d bytes, above %d", got, limit)
	}
}
