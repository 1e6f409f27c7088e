package pipeline

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"
)

// The long run's heartbeat: while Run waits for the runner, every
// progressEvery a line on stderr with the records read and the words
// charged so far. readFn counts into this process's counters, so the
// line counts what the workers in the command's own process (Prism's,
// the default) have seen; a remote runner's workers count in their own
// processes, and there the line stays at 0 (the runner's console shows
// the counters of metrics.go instead). It says nothing of what is
// granted or written, and a run shorter than progressEvery prints
// nothing.
var progressRecords, progressWords atomic.Int64

// progressEvery and progressOut are variables so that a test can shorten
// the interval and capture the lines.
var (
	progressEvery           = 10 * time.Second
	progressOut   io.Writer = os.Stderr
)

// progressStart zeroes the counts and starts the ticker; the function
// it returns stops it, and returns once no more line is printed.
func progressStart() (stop func()) {
	progressRecords.Store(0)
	progressWords.Store(0)
	start, done, exited := time.Now(), make(chan struct{}), make(chan struct{})
	every, out := progressEvery, progressOut
	go func() {
		defer close(exited)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				fmt.Fprintln(out, progressLine(progressRecords.Load(), progressWords.Load(), now.Sub(start)))
			}
		}
	}()
	return func() { close(done); <-exited }
}

// progressAdd counts one record read and its words charged.
func progressAdd(words int) {
	progressRecords.Add(1)
	progressWords.Add(int64(words))
}

func progressLine(records, words int64, elapsed time.Duration) string {
	return fmt.Sprintf("wordveil-beam: progress: %d records read, %d words charged so far (%s)",
		records, words, elapsed.Round(time.Second))
}
