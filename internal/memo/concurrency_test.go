package memo

import (
	"runtime"
	"sync"
	"testing"
)

// resolveFunc answers words with their released responses.
type resolveFunc func(words []int32) ([]int32, error)

// countConflicts runs trials rounds; in each, every resolver in rs (one
// goroutine each) resolves the same fresh word set at once. It returns how
// many words were released with more than one response: the permanent
// response promise allows none.
func countConflicts(t *testing.T, trials, wordsPerTrial int, rs []resolveFunc) (conflicts int) {
	t.Helper()
	for trial := range trials {
		words := make([]int32, wordsPerTrial)
		for i := range words {
			words[i] = int32(trial*wordsPerTrial + i)
		}
		out := make([][]int32, len(rs))
		errs := make([]error, len(rs))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for g, r := range rs {
			wg.Go(func() {
				<-start
				out[g], errs[g] = r(words)
			})
		}
		close(start)
		wg.Wait()
		for g, err := range errs {
			if err != nil {
				t.Fatalf("trial %d, goroutine %d: %v", trial, g, err)
			}
		}
		for i := range words {
			for g := 1; g < len(rs); g++ {
				if out[g][i] != out[0][i] {
					conflicts++
					break
				}
			}
		}
	}
	return conflicts
}

// yieldingDraw draws at random and yields, to widen the window in which a
// broken memo would let another goroutine draw the same word.
func yieldingDraw(w int32) (int32, error) {
	runtime.Gosched()
	return randDraw(w)
}

// TestConcurrentOneResponse: 8 goroutines × 1,000 trials on the same new
// words release exactly one response per word. In a directory, half the
// goroutines use one Memo and half another on the same files, so both the
// mutex and the file lock are exercised.
func TestConcurrentOneResponse(t *testing.T) {
	const goroutines, trials, words = 8, 1000, 4
	for _, where := range []string{"memory", "directory"} {
		t.Run(where, func(t *testing.T) {
			var memos []*Memo
			if where == "memory" {
				memos = []*Memo{mustOpen(t, "", testID, nil)}
			} else {
				dir := t.TempDir()
				memos = []*Memo{mustOpen(t, dir, testID, secretOf(1)), mustOpen(t, dir, testID, secretOf(1))}
			}
			rs := make([]resolveFunc, goroutines)
			for g := range rs {
				m := memos[g%len(memos)]
				rs[g] = func(w []int32) ([]int32, error) {
					r, _, err := m.Resolve(w, yieldingDraw, noCharge)
					return r, err
				}
			}
			if c := countConflicts(t, trials, words, rs); c != 0 {
				t.Fatalf("%d of %d words released with two responses", c, trials*words)
			}
			if n, _ := memos[0].Len(); n != trials*words {
				t.Fatalf("memo holds %d words, want %d", n, trials*words)
			}
			t.Logf("%s: %d goroutines × %d trials × %d words: 0 conflicts", where, goroutines, trials, words)
		})
	}
}

// racyMemo is the check-then-act bug of a memo that does not hold its lock
// across the draw: a negative control for countConflicts.
type racyMemo struct {
	mu   sync.Mutex
	resp map[int32]int32
}

func (r *racyMemo) resolve(words []int32, draw func(int32) (int32, error)) ([]int32, error) {
	out := make([]int32, len(words))
	for i, w := range words {
		r.mu.Lock()
		y, ok := r.resp[w]
		r.mu.Unlock()
		if !ok {
			var err error
			if y, err = draw(w); err != nil {
				return nil, err
			}
			r.mu.Lock()
			r.resp[w] = y
			r.mu.Unlock()
		}
		out[i] = y
	}
	return out, nil
}

// TestNegativeControlRacyMemo shows that countConflicts detects a broken
// memo: a barrier inside draw holds every goroutine there until all have
// arrived, forcing the interleaving in which each of them found the word
// new. Every trial's first word then gets 8 responses, deterministically.
func TestNegativeControlRacyMemo(t *testing.T) {
	const goroutines, trials = 8, 20
	r := &racyMemo{resp: map[int32]int32{}}
	var mu sync.Mutex
	arrived := map[int32]int{}
	all := map[int32]chan struct{}{}
	barrier := func(w int32) (int32, error) {
		mu.Lock()
		if all[w] == nil {
			all[w] = make(chan struct{})
		}
		ch := all[w]
		if arrived[w]++; arrived[w] == goroutines {
			close(ch)
		}
		mu.Unlock()
		<-ch
		return randDraw(w)
	}
	rs := make([]resolveFunc, goroutines)
	for g := range rs {
		rs[g] = func(w []int32) ([]int32, error) { return r.resolve(w[:1], barrier) }
	}
	c := countConflicts(t, trials, 1, rs)
	if c != trials {
		t.Fatalf("harness found %d conflicts in a racy memo, want %d", c, trials)
	}
	t.Logf("racy memo: %d of %d words released with several responses (detected)", c, trials)
}
