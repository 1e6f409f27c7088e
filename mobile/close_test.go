package mobile

import (
	"bytes"
	"os"
	"runtime"
	"sync"
	"testing"
)

// closeConfig is a 1-DG configuration with a ledger and a memo in temp dirs.
func closeConfig(t *testing.T) *Config {
	t.Helper()
	cfg := NewConfig()
	cfg.Mechanism = "1dg"
	cfg.LedgerDir = t.TempDir()
	cfg.MemoDir = t.TempDir()
	cfg.MemoSecret = bytes.Repeat([]byte{9}, 32)
	cfg.Anchor = &keychain{}
	return cfg
}

// openFDs counts this process's open file descriptors (Linux's
// /proc/self/fd); the test is skipped where there is no such directory.
func openFDs(t *testing.T) int {
	t.Helper()
	count := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skipf("no /proc/self/fd: %v", err)
		}
		return len(ents)
	}
	// Files that other tests dropped without closing are closed by their
	// finalizers, after a collection, at no set time: collect until the
	// count settles, so that only what the test itself holds is counted.
	n := count()
	for range 10 {
		runtime.GC()
		runtime.Gosched()
		m := count()
		if m == n {
			break
		}
		n = m
	}
	return n
}

// TestCloseThenEveryMethod: after Close each method returns WV_CLOSED or
// its documented zero value, and Close again returns nil.
func TestCloseThenEveryMethod(t *testing.T) {
	p, err := OpenPrivatizer(closeConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Privatize("the cat sat"); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	r, err := p.Privatize("the cat sat")
	wantCode(t, "Privatize after Close", err, CodeClosed)
	d, err := p.Deniability(1, 1)
	wantCode(t, "Deniability after Close", err, CodeClosed)
	if r != nil || d != nil {
		t.Errorf("a result came back with WV_CLOSED: %v %v", r, d)
	}
	if e, m, n := p.Epsilon(), p.Metric(), p.VocabularySize(); e != 0 || m != "" || n != 0 {
		t.Errorf("Epsilon, Metric, VocabularySize after Close: %v %q %d, want zero values", e, m, n)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestCloseReleasesDescriptors: open/privatize/close cycles with a memo and
// a ledger leave the descriptor count where it was; the same cycles
// without Close (the negative control) leave one descriptor per privatizer
// (the memo file), so the test can see a leak.
func TestCloseReleasesDescriptors(t *testing.T) {
	cfg := closeConfig(t)
	const cycles = 20
	cycle := func(close bool) *Privatizer {
		p, err := OpenPrivatizer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Privatize("the cat sat on the mat"); err != nil {
			t.Fatal(err)
		}
		if close {
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	cycle(true) // creates the files
	base := openFDs(t)
	for i := 0; i < cycles; i++ {
		cycle(true)
	}
	if n := openFDs(t); n != base {
		t.Errorf("with Close: %d descriptors after %d cycles, %d before", n, cycles, base)
	}
	var kept []*Privatizer // referenced, as gobind's handle table does until a finalizer runs
	for i := 0; i < cycles; i++ {
		kept = append(kept, cycle(false))
	}
	if n := openFDs(t); n < base+cycles {
		t.Errorf("negative control: without Close %d descriptors after %d cycles, %d before: the test cannot see a leak", n, cycles, base)
	}
	for _, p := range kept {
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := openFDs(t); n != base {
		t.Errorf("after closing the kept privatizers: %d descriptors, %d before", n, base)
	}
}

// TestFailedOpenClosesWhatItOpened: an open that fails after opening the
// ledger and the memo (here: the memo directory was replaced under its
// ledger, so binding them fails) leaves no descriptor open.
func TestFailedOpenClosesWhatItOpened(t *testing.T) {
	cfg := closeConfig(t)
	p, err := OpenPrivatizer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	cfg.MemoDir = t.TempDir() // a new memo: the ledger is bound to the old one
	base := openFDs(t)
	for i := 0; i < 5; i++ {
		_, err := OpenPrivatizer(cfg)
		wantCode(t, "open with a replaced memo", err, CodeCorruptState)
	}
	if n := openFDs(t); n != base {
		t.Errorf("failed opens left %d descriptors, %d before", n, base)
	}
}

// TestCloseConcurrentWithCalls (run with -race): threads privatize and
// measure deniability while others close; every call succeeds or returns
// WV_CLOSED.
func TestCloseConcurrentWithCalls(t *testing.T) {
	p, err := OpenPrivatizer(closeConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				var err error
				if g%2 == 0 {
					_, err = p.Privatize("the cat sat on the mat")
				} else {
					_, err = p.Deniability(2, 2)
				}
				if err == nil {
					_ = p.Epsilon() + float64(p.VocabularySize())
					continue
				}
				if ErrCode(err.Error()) != CodeClosed {
					t.Errorf("call during Close: %v, want success or WV_CLOSED", err)
				}
				return
			}
		}()
	}
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}()
	}
	wg.Wait()
}
