// Package progress draws progress for long command-line jobs on stderr: a
// bar redrawn in place on a terminal, a plain line every few seconds
// otherwise (logs, CI), so a build never looks hung and never floods a log.
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
	total    int
	start    time.Time
	last     time.Time
	interval time.Duration
	drawn    int // last count drawn, -1 before the first
}

// New starts a bar for a stage of total steps on w (typically os.Stderr).
func New(w io.Writer, stage string, total int) *Bar {
	b := &Bar{w: w, stage: stage, total: total, start: time.Now(), tty: isTerminal(w), drawn: -1}
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
	now := time.Now()
	if now.Sub(b.last) < b.interval && done < b.total {
		return
	}
	b.last = now
	b.draw(done, now)
}

// Done finishes the stage with a final line giving its duration.
func (b *Bar) Done() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.drawn != b.total || b.tty {
		b.draw(b.total, time.Now())
	}
	if b.tty {
		fmt.Fprintln(b.w)
	}
}

func (b *Bar) draw(done int, now time.Time) {
	b.drawn = done
	el := now.Sub(b.start).Round(100 * time.Millisecond)
	frac := 1.0
	if b.total > 0 {
		frac = float64(done) / float64(b.total)
	}
	if !b.tty {
		fmt.Fprintf(b.w, "%s: %d/%d (%3.0f%%) %v\n", b.stage, done, b.total, 100*frac, el)
		return
	}
	const width = 30
	n := int(frac * width)
	eta := ""
	if frac > 0 && frac < 1 {
		eta = fmt.Sprintf(" eta %v", time.Duration(float64(now.Sub(b.start))*(1/frac-1)).Round(time.Second))
	}
	fmt.Fprintf(b.w, "\r%-22s [%s%s] %3.0f%% %v%s   ", b.stage, strings.Repeat("=", n), strings.Repeat(" ", width-n), 100*frac, el, eta)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
