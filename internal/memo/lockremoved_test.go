//go:build unix

package memo

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLockRemovedUnderProcesses: 4 processes race on the same new words
// while this one deletes, as fast as it can, every file of the directory
// that is not a memo file (the lock file earlier versions used, and
// anything a cleaner might think is a stale lock): every word is released
// with one response, and the directory holds one memo file. The lock is
// the memo file's own flock, which nothing but the file's deletion can
// take away (and a deleted file fails closed: TestTamperUnderOpenMemo).
func TestLockRemovedUnderProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const procs, words = 4, 500 * 4
	dir, anchorDir := t.TempDir(), t.TempDir()
	t.Setenv(envAnchor, anchorDir) // the children keep one anchor, as an app and its extension would
	type child struct {
		cmd *exec.Cmd
		in  io.WriteCloser
		out *bufio.Scanner
	}
	var cs []child
	for range procs {
		cmd, in, out := startChild(t, dir, "race", 0)
		if !out.Scan() || out.Text() != "ready" {
			t.Fatalf("child did not start: %q", out.Text())
		}
		cs = append(cs, child{cmd, in, out})
	}
	stop := make(chan struct{})
	removed := make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				removed <- n
				return
			default:
			}
			os.WriteFile(filepath.Join(dir, legacyLock), nil, 0o600)
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if !strings.HasSuffix(e.Name(), fileSuffix) && os.Remove(filepath.Join(dir, e.Name())) == nil {
					n++
				}
			}
		}
	}()
	for _, c := range cs {
		io.WriteString(c.in, "go\n")
	}
	released := make([]map[int32]int32, procs)
	done := make(chan int)
	for i, c := range cs {
		released[i] = map[int32]int32{}
		go func() {
			for c.out.Scan() {
				if w, r, ok := parseReleased(c.out.Text()); ok {
					released[i][w] = r
				}
			}
			done <- i
		}()
	}
	for range cs {
		i := <-done
		if err := cs[i].cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v", i, err)
		}
	}
	close(stop)
	n := <-removed
	conflicts := 0
	for w := range int32(words) {
		for i := range procs {
			r, ok := released[i][w]
			if !ok {
				t.Fatalf("child %d did not release word %d", i, w)
			}
			if r != released[0][w] {
				conflicts++
				break
			}
		}
	}
	if conflicts != 0 {
		t.Fatalf("%d of %d words released with two responses across processes", conflicts, words)
	}
	memoFile(t, dir) // exactly one
	m, err := OpenWith(dir, testID, secretOf(1), Options{Anchor: fileAnchor(anchorDir)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if k, err := m.Len(); err != nil || k != words {
		t.Fatalf("memo holds %d words (%v), want %d", k, err, words)
	}
	t.Logf("%d processes, %d words, %d lock-like files removed meanwhile: 0 conflicts", procs, words, n)
}
