package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"testing"
)

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
		msg  bool
	}{
		{nil, 0, false},
		{flag.ErrHelp, 0, false},
		{ErrUsageShown, 2, false},
		{fmt.Errorf("%w: bad flag", ErrUsage), 2, true},
		{fmt.Errorf("lines 1–3: %w", ErrBudget), 3, true},
		{ErrInterrupted, 130, true},
		{errors.New("disk full"), 1, true},
	} {
		if got := ExitCode(tc.err); got != tc.code {
			t.Errorf("%v: exit %d, want %d", tc.err, got, tc.code)
		}
		if got := Message(tc.err) != ""; got != tc.msg {
			t.Errorf("%v: message printed %v, want %v", tc.err, got, tc.msg)
		}
	}
}

func TestParseFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("n", 1, "")
	if err := ParseFlags(fs, []string{"-n", "3"}); err != nil || *n != 3 || !SetFlags(fs)["n"] {
		t.Fatal(err)
	}
	if err := ParseFlags(fs, []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatal(err)
	}
	if err := ParseFlags(fs, []string{"-bogus"}); !errors.Is(err, ErrUsageShown) || ExitCode(err) != 2 {
		t.Fatal(err)
	}
}
