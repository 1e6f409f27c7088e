package privatize

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
)

// closeFixture is a 1-DG privatizer with a ledger and, withMemo, a memo in
// temp dirs, and the memo, to see that Close closed it.
func closeFixture(t *testing.T, withMemo bool) (*Privatizer, *memo.Memo) {
	t.Helper()
	a := defaultAsset(t)
	dg, err := mechanism.NewDiffractorGeometric(a.Lists, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	var m *memo.Memo
	if withMemo {
		if m, err = memo.Open(t.TempDir(), MemoIdentity(dg, a), testSecret); err != nil {
			t.Fatal(err)
		}
	}
	l := openLedger(t, t.TempDir(), m)
	p, err := New(dg, a, Options{Memo: m, Ledger: l})
	if err != nil {
		t.Fatal(err)
	}
	return p, m
}

// TestCloseThenEveryCall: after Close every call fails with ErrClosed, a
// second Close returns nil, and the memo the privatizer owned is closed.
func TestCloseThenEveryCall(t *testing.T) {
	p, m := closeFixture(t, true)
	src := mechanism.NewSecureSource()
	if _, err := p.Privatize("the cat sat", src); err != nil {
		t.Fatalf("before Close: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	calls := []struct {
		name string
		call func() error
	}{
		{"Privatize", func() error { _, err := p.Privatize("the cat sat", src); return err }},
		{"PrivatizeBlock", func() error {
			_, err := p.PrivatizeBlock(context.Background(), []string{"the cat"}, src, nil)
			return err
		}},
		// The same error before any other check: the arguments are not looked at.
		{"Privatize empty text, nil source", func() error { _, err := p.Privatize("", nil); return err }},
		{"PrivatizeBlock no texts", func() error { _, err := p.PrivatizeBlock(context.Background(), nil, src, nil); return err }},
	}
	for _, c := range calls {
		if err := c.call(); !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", c.name, err)
		}
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v, want nil", err)
	}
	_, _, err := m.Resolve([]int32{1}, func(w int32) (int32, error) { return w, nil },
		func([]int32, []bool) error { return nil })
	if !errors.Is(err, memo.ErrInvalid) {
		t.Errorf("memo after the privatizer's Close: %v, want it closed (memo.ErrInvalid)", err)
	}
}

// TestCloseNilAndZero: Close on a nil or zero-value Privatizer neither
// panics nor fails; the zero value reports ErrInvalid (a programming
// error, not a corrupt asset), then ErrClosed.
func TestCloseNilAndZero(t *testing.T) {
	var nilP *Privatizer
	if err := nilP.Close(); err != nil {
		t.Errorf("nil Close: %v", err)
	}
	var zero Privatizer
	if _, err := zero.Privatize("x", mechanism.NewSecureSource()); !errors.Is(err, ErrInvalid) || errors.Is(err, mechanism.ErrEmptyVocabulary) {
		t.Errorf("zero Privatize: %v", err)
	}
	if err := zero.Close(); err != nil {
		t.Errorf("zero Close: %v", err)
	}
	if _, err := zero.Privatize("x", mechanism.NewSecureSource()); !errors.Is(err, ErrClosed) {
		t.Errorf("zero Privatize after Close: %v, want ErrClosed", err)
	}
}

// TestCloseWaitsForCallInProgress: Close does not release the memo and
// ledger under a call in progress: the call (held inside its prepare
// callback until Close has begun) still charges and returns its text, a
// call begun after Close (here from inside prepare) gets ErrClosed instead
// of deadlocking, and Close returns only after the held call ends. No memo:
// a memo's transaction holds its lock while prepare runs, so a call from
// inside prepare would wait for the memo.
func TestCloseWaitsForCallInProgress(t *testing.T) {
	p, _ := closeFixture(t, false)
	src := mechanism.NewSecureSource()
	closed := make(chan error, 1)
	var closedEarly bool
	res, err := p.PrivatizeBlock(context.Background(), []string{"the cat sat"}, src, func([]Result) error {
		go func() { closed <- p.Close() }()
		// Wait until Close has begun: then a new call is refused.
		for {
			_, err := p.Privatize("the dog", mechanism.NewSecureSource())
			if errors.Is(err, ErrClosed) {
				break
			}
			if err != nil {
				return err
			}
		}
		select {
		case <-closed:
			closedEarly = true
		default:
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the call in progress: %v", err)
	}
	if closedEarly {
		t.Fatal("Close returned while a call was in progress")
	}
	if res[0].Accounting.Ledger == nil || res[0].Text == "" {
		t.Fatalf("the call in progress was not charged: %+v", res[0])
	}
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// TestCloseConcurrentWithPrivatize (run with -race): goroutines privatize
// while another closes; every call either succeeds or fails with
// ErrClosed, nothing panics.
func TestCloseConcurrentWithPrivatize(t *testing.T) {
	p, _ := closeFixture(t, true)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := mechanism.NewSecureSource()
			for {
				_, err := p.Privatize("the cat sat on the mat", src)
				if errors.Is(err, ErrClosed) {
					return
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Close(); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
