package pipeline

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

// forEach calls f once for every index when nothing fails, at most
// commitWorkers at a time, and returns the error of the lowest index that
// failed.
func TestForEach(t *testing.T) {
	for _, n := range []int{0, 1, commitWorkers - 1, commitWorkers, 1000} {
		calls := make([]atomic.Int32, n)
		var running, most atomic.Int32
		err := forEach(n, func(i int) error {
			r := running.Add(1)
			for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
			}
			calls[i].Add(1)
			for range 100 { // let other calls start, if they may
				runtime.Gosched()
			}
			running.Add(-1)
			return nil
		})
		if err != nil {
			t.Fatalf("n %d: %v", n, err)
		}
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n %d: index %d called %d times", n, i, c)
			}
		}
		if most.Load() > commitWorkers {
			t.Errorf("n %d: %d calls at once, more than %d", n, most.Load(), commitWorkers)
		}
	}
	for _, failAt := range [][]int{{0}, {7}, {999}, {3, 500}, {500, 3}} {
		err := forEach(1000, func(i int) error {
			for _, f := range failAt {
				if i == f {
					return fmt.Errorf("file %d", i)
				}
			}
			return nil
		})
		// Indices are handed out in order and each one handed out is
		// called, so the lowest failing one is always reached.
		if want := fmt.Sprintf("file %d", slices.Min(failAt)); err == nil || err.Error() != want {
			t.Errorf("failing at %v: %v, want %s", failAt, err, want)
		}
	}
}
