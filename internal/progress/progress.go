// Package progress draws progress for long command-line jobs on stderr: a
// bar redrawn in place on a terminal, a plain line every few seconds
// otherwise (logs, CI), so a build never looks hung and never floods a log.
// NewTerminal's bar is for commands whose stderr is often a log or a pipe
// (wordveil privatize, stats): it is silent unless stderr is a terminal
// and the job has run for a while. A bar only writes; it never slows the
// job beyond a clock read and a lock per Set.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Bar reports one stage's progress. A nil *Bar is valid and silent.
type Bar struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	stage    string
	total    int // ≤ 0: unknown
	start    time.Time
	last     time.Time
	interval time.Duration
	after    time.Duration // nothing is drawn before the stage has run this long
	done     int           // the last count Set
	drawn    int           // last count drawn, -1 before the first
}

// New starts a bar for a stage of total steps on w (typically os.Stderr).
// A total ≤ 0 is unknown: the bar then shows the count and the time.
func New(w io.Writer, stage string, total int) *Bar {
	return newBar(w, stage, total, IsTerminal(w), 0)
}

// NewTerminal starts a bar that draws only on a terminal and only once
// the stage has run for after: it returns nil (a silent bar) when w is not
// a terminal, and a stage that ends sooner leaves no trace, its Done
// included. A total ≤ 0 is unknown, as for New.
func NewTerminal(w io.Writer, stage string, total int, after time.Duration) *Bar {
	if !IsTerminal(w) {
		return nil
	}
	return newBar(w, stage, total, true, after)
}

func newBar(w io.Writer, stage string, total int, tty bool, after time.Duration) *Bar {
	b := &Bar{w: w, stage: stage, total: total, start: time.Now(), tty: tty, after: after, drawn: -1}
	b.interval = 5 * time.Second
	if b.tty {
		b.interval = 100 * time.Millisecond
	}
	return b
}

// Set records that done steps are complete, drawing when it is time to.
func (b *Bar) Set(done int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = done
	now := time.Now()
	if now.Sub(b.start) < b.after || now.Sub(b.last) < b.interval && (b.total <= 0 || done < b.total) {
		return
	}
	b.last = now
	b.draw(done, now)
}

// Done finishes the stage with a final line giving its duration (none
// from a NewTerminal bar that has drawn nothing yet).
func (b *Bar) Done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.after > 0 && b.drawn < 0 {
		return
	}
	final := b.total
	if final <= 0 {
		final = b.done
	}
	if b.drawn != final || b.tty {
		b.draw(final, time.Now())
	}
	if b.tty {
		fmt.Fprintln(b.w)
	}
}

func (b *Bar) draw(done int, now time.Time) {
	b.drawn = done
	el := now.Sub(b.start).Round(100 * time.Millisecond)
	if b.total <= 0 {
		if b.tty {
			fmt.Fprintf(b.w, "\r%-22s %d %v   ", b.stage, done, el)
		} else {
			fmt.Fprintf(b.w, "%s: %d %v\n", b.stage, done, el)
		}
		return
	}
	frac := float64(done) / float64(b.total)
	if !b.tty {
		fmt.Fprintf(b.w, "%s: %d/%d (%3.0f%%) %v\n", b.stage, done, b.total, 100*frac, el)
		return
	}
	const width = 30
	n := min(max(int(frac*width), 0), width)
	eta := ""
	if frac > 0 && frac < 1 {
		eta = fmt.Sprintf(" eta %v", time.Duration(float64(now.Sub(b.start))*(1/frac-1)).Round(time.Second))
	}
	fmt.Fprintf(b.w, "\r%-22s [%s%s] %3.0f%% %v%s   ", b.stage, strings.Repeat("=", n), strings.Repeat(" ", width-n), 100*frac, el, eta)
}

// IsTerminal reports whether w is a terminal (a character device), where
// a bar is redrawn in place.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
