package mechanism

import (
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
)

// Mechanisms are shared across goroutines, each with its own source (run
// with -race): pooled buffers must not leak between calls.
func TestConcurrentUse(t *testing.T) {
	for _, c := range auditCases(t) {
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				src := NewSeededSourceForEvaluation(stattest.Seed(c.name + itoa(g)))
				for k := range 200 {
					w := k % c.mech.Len()
					y, err := c.mech.Privatize(w, src)
					if err != nil {
						errs <- err
						return
					}
					if c.P[w][y] == 0 {
						t.Errorf("%s: output %d for %d has exact probability 0", c.name, y, w)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
