package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// With WORDVEIL_BEAM_MAIN=1 the test binary is the command: the tests
// below run it as a user would, in its own process (Beam's flags live in
// the process-wide flag set, and beam.Init runs once per process).
func TestMain(m *testing.M) {
	if os.Getenv("WORDVEIL_BEAM_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stderr))
	}
	os.Exit(m.Run())
}

// wvbeam runs the command with args and returns its exit code and stderr.
func wvbeam(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "WORDVEIL_BEAM_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// The exit codes and messages: 0 and the counters for a run, 2 for a
// usage error or an invalid setting (nothing run), 1 for a failed run
// with the cause in one line and the text never quoted.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(`{"user":"a","text":"the cat sat on the mat"}`+"\n"+`{"user":"b","text":"hello there"}`+"\n"), 0o644)
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"user":"a","text":"secret words`+"\n"), 0o644)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"a run", []string{"-input", in, "-output", filepath.Join(dir, "out"), "-cap-words", "3"}, 0,
			"2 records read (0 malformed lines skipped), 1 released, 1 withheld over a cap; 2 words privatized; 2 users, 1 of them capped"},
		{"the output directory holds a committed run", []string{"-input", in, "-output", filepath.Join(dir, "out")}, 2, "holds a committed run"},
		{"no input", []string{"-output", filepath.Join(dir, "o2")}, 2, "no input glob"},
		{"unknown flag", []string{"-input", in, "-output", filepath.Join(dir, "o3"), "-capp", "1"}, 2, "flag provided but not defined"},
		{"stray argument", []string{"-input", in, "-output", filepath.Join(dir, "o4"), "extra"}, 2, "unexpected arguments"},
		{"bad ε", []string{"-input", in, "-output", filepath.Join(dir, "o5"), "-epsilon", "-1"}, 2, "Epsilon -1"},
		{"cap with CusText", []string{"-input", in, "-output", filepath.Join(dir, "o6"), "-mechanism", "custext", "-preset", "light", "-cap", "10"}, 2, "loss is unknown"},
		{"malformed line", []string{"-input", bad, "-output", filepath.Join(dir, "o7")}, 1, "bad.jsonl line 1: malformed record"},
		{"nothing matches", []string{"-input", filepath.Join(dir, "none-*.jsonl"), "-output", filepath.Join(dir, "o8")}, 1, "no files matching"},
		{"help", []string{"-h"}, 0, "Usage: wordveil-beam"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, stderr := wvbeam(t, c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, want %d; stderr:\n%s\nwant it to contain %q", code, c.code, stderr, c.want)
			}
			if strings.Contains(stderr, "secret") {
				t.Fatalf("stderr quotes the text:\n%s", stderr)
			}
			if c.code == 1 && strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Fatalf("a failed run printed more than its cause:\n%s", stderr)
			}
		})
	}
}

// -h shows the command's own flags by group first, then Beam's under one
// heading.
func TestHelpGroups(t *testing.T) {
	code, out := wvbeam(t, "-h")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	at := func(s string) int {
		i := strings.Index(out, s)
		if i < 0 {
			t.Fatalf("-h does not show %q:\n%s", s, out)
		}
		return i
	}
	order := []string{"\nInput and output:", "\n  -input ", "\nCaps and the state across runs:", "\n  -cap-words ", "\n  -state-key ",
		"\nThe engine:", "\n  -mechanism ", "\nThe run:", "\n  -threads ", "\nApache Beam's flags", "\n  -runner "}
	for i := 1; i < len(order); i++ {
		if at(order[i-1]) > at(order[i]) {
			t.Errorf("-h shows %q after %q", order[i-1], order[i])
		}
	}
	if strings.Count(out, "\n  -input ") != 1 {
		t.Error("-h shows -input more than once")
	}
}
