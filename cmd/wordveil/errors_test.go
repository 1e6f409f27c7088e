package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/mechanism"
)

// TestFromRoot: each category of package core gets its exit code,
// the message loses the package's own prefix (the CLI prints one), gains
// where, and errors.Is still sees the category and the cause.
func TestFromRoot(t *testing.T) {
	_, invalid := core.Open(core.Config{Mechanism: "vickrey"})
	_, saturated := core.Open(core.Config{Epsilon: 1000})
	p, err := core.Open(core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	_, closed := p.Privatize("x")
	for _, tc := range []struct {
		err   error
		code  int
		cause error
	}{
		{invalid, 2, core.ErrInvalidConfig},
		{saturated, 2, mechanism.ErrEpsilonSaturated},
		{closed, 1, core.ErrClosed},
		{nil, 0, nil},
	} {
		got := fromRoot(tc.err, "lines 1–2")
		if code := exitCode(got); code != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.err, code, tc.code)
		}
		if tc.err == nil {
			if got != nil {
				t.Errorf("fromRoot(nil) = %v", got)
			}
			continue
		}
		msg := errorMessage(got)
		if strings.Contains(msg, rootPrefix) || !strings.Contains(msg, "lines 1–2: ") || !errors.Is(got, tc.cause) {
			t.Errorf("%v: message %q, or errors.Is(%v) false", tc.err, msg, tc.cause)
		}
	}
	// Negative control: an error that is not the package's keeps exit 1.
	if code := exitCode(fromRoot(errors.New("disk full"), "")); code != 1 {
		t.Errorf("a plain error: exit %d", code)
	}
}
