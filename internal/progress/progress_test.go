package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestPlainOutput(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, "lists", 10)
	b.Set(1) // first call draws
	b.Set(2) // within the interval: silent
	b.Done()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "lists: 1/10") || !strings.HasPrefix(lines[1], "lists: 10/10 (100%)") {
		t.Fatalf("output %q", buf.String())
	}
	var nilBar *Bar
	nilBar.Set(3) // must not panic
	nilBar.Done()
}

// A terminal bar that waits: silent before its delay (Done included, so a
// short job leaves no trace), drawn after it; with an unknown total it
// shows the count. NewTerminal on a writer that is not a terminal is nil.
func TestTerminalDelayAndUnknownTotal(t *testing.T) {
	cases := []struct {
		name  string
		after time.Duration
		total int
		want  []string // substrings of the output, in order; nil: no output
	}{
		{"short job", time.Hour, 10, nil},
		{"known total", 0, 10, []string{"\rprivatize", "[===", "100%"}},
		{"unknown total", 0, 0, []string{"\rprivatize", " 3 ", " 7 "}},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		b := newBar(&buf, "privatize", c.total, true, c.after)
		b.Set(3)
		b.Set(7)
		b.Done()
		got := buf.String()
		if c.want == nil && got != "" {
			t.Errorf("%s: drew %q", c.name, got)
		}
		for _, w := range c.want {
			i := strings.Index(got, w)
			if i < 0 {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
				break
			}
			got = got[i+len(w):]
		}
	}
	var buf bytes.Buffer
	if b := NewTerminal(&buf, "privatize", 1, 0); b != nil {
		t.Errorf("NewTerminal on a buffer = %v, want nil", b)
	}
}
