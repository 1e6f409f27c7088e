//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestExclusive: a second Lock on the same file waits for the first's
// unlock, across file descriptors (flock locks are per open file, so two
// opens in one process exclude each other as two processes would).
func TestExclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := Lock(p)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	released := false
	done := make(chan struct{})
	go func() {
		u, err := Lock(p)
		if err != nil {
			t.Error(err)
			close(done)
			return
		}
		mu.Lock()
		if !released {
			t.Error("second Lock returned while the first was held")
		}
		mu.Unlock()
		u()
		close(done)
	}()
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	released = true
	mu.Unlock()
	unlock()
	<-done
}

func TestLockErrors(t *testing.T) {
	if _, err := Lock(filepath.Join(t.TempDir(), "missing", "x.lock")); err == nil {
		t.Fatal("lock in a missing directory succeeded")
	}
}

// TestLockFileExclusive: LockFile on two descriptors of one file excludes
// (flock locks belong to the open file description), and removing the
// file's name does not release it.
func TestLockFileExclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "data")
	os.WriteFile(p, nil, 0o600)
	f1, _ := os.Open(p)
	f2, _ := os.Open(p)
	defer f1.Close()
	defer f2.Close()
	unlock, err := LockFile(f1)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(p) // a cleaner: the lock is on the file, not the name
	got := make(chan struct{})
	go func() {
		u, err := LockFile(f2)
		if err != nil {
			t.Error(err)
		} else {
			u()
		}
		close(got)
	}()
	select {
	case <-got:
		t.Fatal("second LockFile returned while the first was held")
	case <-time.After(50 * time.Millisecond):
	}
	unlock()
	<-got
}
