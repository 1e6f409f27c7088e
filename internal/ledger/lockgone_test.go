package ledger

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const lockGoneCap = 1000

// fileAnchor is an Anchor over files in a directory, shared by processes.
type fileAnchor string

func (a fileAnchor) Load(name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(string(a), name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

func (a fileAnchor) Store(name string, b []byte) error {
	tmp, err := os.CreateTemp(string(a), name+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(string(a), name))
}

// TestLockRemovedUnderProcesses: 4 processes charge 1 at a time up to a
// lifetime cap of 1000, compacting every other record, while this one
// deletes the directory's lock file as fast as it can (a cleaner): the
// charges granted add up to at most the cap, exactly the ledger's total,
// and the ledger opens (under its anchor). The lock is the ledger file's
// own flock; the lock file only serializes creation.
func TestLockRemovedUnderProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir, anchorDir := t.TempDir(), t.TempDir()
	if _, err := OpenWith(dir, Caps{}, Options{Anchor: fileAnchor(anchorDir)}); err != nil {
		t.Fatal(err)
	}
	stop, removed := make(chan struct{}), make(chan int)
	go func() {
		n := 0
		for {
			select {
			case <-stop:
				removed <- n
				return
			default:
			}
			if os.Remove(filepath.Join(dir, lockName)) == nil {
				n++
			}
		}
	}()
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for range 4 {
		cmd := child(t, dir, "lockgone")
		cmd.Env = append(cmd.Env, "WV_LEDGER_ANCHOR="+anchorDir)
		var b strings.Builder
		cmd.Stdout = &b
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &b)
	}
	total := 0
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v: %s", i, err, outs[i])
		}
		n, err := strconv.Atoi(strings.Fields(outs[i].String() + " x")[0])
		if err != nil {
			t.Fatalf("child %d said %q", i, outs[i])
		}
		total += n
	}
	close(stop)
	n := <-removed
	l, err := OpenWith(dir, Caps{}, Options{Anchor: fileAnchor(anchorDir)})
	if err != nil {
		t.Fatalf("ledger after the run: %v", err)
	}
	_, life, err := l.Spent()
	if err != nil || life != float64(total) || total != lockGoneCap {
		t.Fatalf("granted %d, ledger %v (%v), cap %d", total, life, err, lockGoneCap)
	}
	t.Logf("4 processes granted %d of cap %d; the lock file was removed %d times meanwhile", total, lockGoneCap, n)
}
