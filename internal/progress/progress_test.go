package progress

import (
	"bytes"
	"strings"
	"testing"
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
