package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
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
}

// TestParseFlagsErrors: a mistyped flag prints its error and one line
// pointing at -h, never the whole usage; -h prints the usage (the
// command's own, or the flag package's default) and exits 0.
func TestParseFlagsErrors(t *testing.T) {
	const custom = "Usage: wordveil privatize [flags]\n"
	for _, tc := range []struct {
		name    string
		args    []string
		usage   bool // the command sets its own fs.Usage
		want    string
		wantErr error
	}{
		{"unknown flag", []string{"-mechansim", "brr"}, true,
			"wordveil privatize: flag provided but not defined: -mechansim\nRun 'wordveil privatize -h' for usage.\n", ErrUsageShown},
		{"bad value", []string{"-n", "many"}, true,
			"wordveil privatize: invalid value \"many\" for flag -n: parse error\nRun 'wordveil privatize -h' for usage.\n", ErrUsageShown},
		{"missing value", []string{"-n"}, false,
			"wordveil privatize: flag needs an argument: -n\nRun 'wordveil privatize -h' for usage.\n", ErrUsageShown},
		{"-h, the command's usage", []string{"-h"}, true, custom + "  -n int\n    \tcount (default 1)\n", flag.ErrHelp},
		{"-help, the default usage", []string{"-help"}, false, "Usage of wordveil privatize:\n  -n int\n    \tcount (default 1)\n", flag.ErrHelp},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			fs := flag.NewFlagSet("wordveil privatize", flag.ContinueOnError)
			fs.SetOutput(&out)
			if tc.usage {
				fs.Usage = func() {
					fmt.Fprint(fs.Output(), custom)
					fs.PrintDefaults()
				}
			}
			fs.Int("n", 1, "count")
			err := ParseFlags(fs, tc.args)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if got := out.String(); got != tc.want {
				t.Errorf("printed %q, want %q", got, tc.want)
			}
			if fs.Output() != &out {
				t.Error("the flag set's output was not restored")
			}
			if code := ExitCode(err); code != map[error]int{ErrUsageShown: 2, flag.ErrHelp: 0}[tc.wantErr] {
				t.Errorf("exit %d", code)
			}
			if Message(err) != "" {
				t.Errorf("message %q printed again by Exit", Message(err))
			}
		})
	}
}
