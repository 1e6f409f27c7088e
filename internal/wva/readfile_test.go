//go:build unix

package wva

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readFileWithin calls ReadFile in a goroutine so a ReadFile that blocks
// (on a named pipe, say) fails the test instead of hanging it. The limit
// is a hang guard, not a timing assertion: ReadFile takes microseconds.
func readFileWithin(t *testing.T, path string) ([]byte, error) {
	t.Helper()
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := ReadFile(path)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-time.After(30 * time.Second):
		t.Fatalf("ReadFile(%s) blocked", path)
		return nil, nil
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	asset := mustMarshal(t, genAsset(t, rand.New(rand.NewPCG(3, 3)), genOpts{n: 20, lists: 1}))
	regular := filepath.Join(dir, "ok.wva")
	if err := os.WriteFile(regular, asset, 0o600); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(dir, "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	// A hole: no disk used, but Stat reports MaxFileSize+1 bytes.
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()

	tests := []struct {
		name, path string
		want       []byte // nil with an error
		err        error
		inMsg      string // part of the error message
	}{
		{"regular", regular, asset, nil, ""},
		{"empty", empty, []byte{}, nil, ""},
		{"directory", dir, nil, ErrNotRegular, dir + " is a directory"},
		{"named pipe", fifo, nil, ErrNotRegular, fifo + " is a named pipe"},
		{"device", "/dev/zero", nil, ErrNotRegular, "/dev/zero is a device"},
		{"sparse over the limit", sparse, nil, ErrFileTooLarge, "268435457 bytes"},
		{"missing", filepath.Join(dir, "nope"), nil, fs.ErrNotExist, "nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path == "/dev/zero" {
				if _, err := os.Stat(tc.path); err != nil {
					t.Skip("no /dev/zero")
				}
			}
			b, err := readFileWithin(t, tc.path)
			if !errors.Is(err, tc.err) {
				t.Fatalf("ReadFile(%s) error %v, want %v", tc.path, err, tc.err)
			}
			if err != nil {
				msg := err.Error()
				if !strings.Contains(msg, tc.inMsg) || strings.Count(msg, "wva:") != 1 {
					t.Errorf("error %q: want it to contain %q and the prefix \"wva:\" once", msg, tc.inMsg)
				}
				return
			}
			if b == nil || !bytes.Equal(b, tc.want) {
				t.Errorf("ReadFile(%s) = %d bytes, want the %d written", tc.path, len(b), len(tc.want))
			}
		})
	}
}

// TestLoadRefuses: Load passes ReadFile's refusals through unwrapped, and
// decodes what it reads: a valid asset loads, one cut below its header is
// the usual ErrTruncated naming the file.
func TestLoadRefuses(t *testing.T) {
	dir := t.TempDir()
	a := genAsset(t, rand.New(rand.NewPCG(4, 4)), genOpts{n: 20, lists: 1})
	b := mustMarshal(t, a)
	good, cut := filepath.Join(dir, "good.wva"), filepath.Join(dir, "cut.wva")
	if err := os.WriteFile(good, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cut, b[:20], 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Load(good)
	if err != nil {
		t.Fatalf("Load(valid asset): %v", err)
	}
	checkEqual(t, a, got)

	for _, tc := range []struct {
		path string
		err  error
	}{{cut, ErrTruncated}, {dir, ErrNotRegular}, {"/dev/zero", ErrNotRegular}} {
		_, err := Load(tc.path)
		if !errors.Is(err, tc.err) {
			t.Errorf("Load(%s) error %v, want %v", tc.path, err, tc.err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, tc.path) || strings.Count(msg, "wva:") != 1 {
			t.Errorf("Load(%s) error %q: want the path and the prefix once", tc.path, msg)
		}
	}
}
