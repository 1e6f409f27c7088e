package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/internal/wva"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{}, {"frobnicate"}, {"assets"}, {"assets", "paint"},
		{"neighbours"}, {"neighbours", "-k", "0", "cat"},
		{"assets", "inspect", "a", "b"},
	} {
		var out, errb bytes.Buffer
		if err := run(args, nil, &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("wordveil %v: err = %v, want a usage error", args, err)
		}
	}
}

func TestInspectAndNeighbours(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run([]string{"assets", "inspect"}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "50000 words") || !strings.Contains(out.String(), "TEMLISTS") {
		t.Fatalf("inspect output:\n%s", out.String())
	}
	out.Reset()
	if err := run([]string{"neighbours", "-k", "3", "London", "qqqzzz"}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || strings.Count(lines[0], ",") != 2 || !strings.Contains(lines[1], "not in the vocabulary") {
		t.Fatalf("neighbours output:\n%s", out.String())
	}
}

// TestInspectCorrupt: a damaged asset is an error naming the problem.
func TestInspectCorrupt(t *testing.T) {
	b := append([]byte(nil), assets.DefaultBytes()...)
	b[100] ^= 0xff
	p := filepath.Join(t.TempDir(), "bad.wva")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	err := run([]string{"assets", "inspect", p}, nil, &out, &errb)
	if err == nil || !errors.Is(err, wva.ErrChecksum) && !errors.Is(err, wva.ErrCorrupt) {
		t.Fatalf("corrupt asset: err = %v", err)
	}
	if err := run([]string{"neighbours", "-asset", p, "cat"}, nil, &out, &errb); err == nil {
		t.Fatal("neighbours on a corrupt asset succeeded")
	}
}

func TestStatsAndBench(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run([]string{"stats", "-words", "20", "-draws", "20"}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "mean N_w") || strings.Count(out.String(), "\n") < 6 {
		t.Fatalf("stats output:\n%s", out.String())
	}
	out.Reset()
	if err := run([]string{"bench", "-words", "200", "-time", "1ms"}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "words/s") {
		t.Fatalf("bench output:\n%s", out.String())
	}
	for _, args := range [][]string{{"stats", "-words", "0"}, {"bench", "x"}, {"stats", "-mechanism", "nope"}, {"stats", "-mechanism", "tem", "-epsilon", "10"}} {
		if err := run(args, nil, &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// TestExitCodes: the exit code of every kind of failure, as the help
// documents it, and usage errors printed exactly once. Whatever package
// wordveil calls an invalid configuration is a usage error (2), whichever
// part refused it: an asset path that is not a regular file, an asset
// without what the mechanism needs (these were failures, exit 1, before
// the CLI opened through package core); a damaged asset stays a
// failure (1).
func TestExitCodes(t *testing.T) {
	small := smallAsset(t)
	corrupt := filepath.Join(t.TempDir(), "corrupt.wva")
	b := append([]byte(nil), assets.DefaultBytes()...)
	b[100] ^= 0xff
	if err := os.WriteFile(corrupt, b, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		in   string
		code int
	}{
		{[]string{"privatize"}, "the cat\n", 0},
		{[]string{"privatize", "-h"}, "", 0},
		{[]string{"privatize", "-epsilon", "0"}, "x\n", 2},
		{[]string{"privatize", "-epsilon", "1e308"}, "x\n", 2},
		{[]string{"privatize", "-cap", "1"}, "x\n", 2},
		{[]string{"privatize", "-cap", "0"}, "x\n", 2},
		{[]string{"privatize", "-ledger", t.TempDir(), "-cap", "NaN"}, "x\n", 2},
		{[]string{"privatize", "-nope"}, "x\n", 2},
		{[]string{"frobnicate"}, "", 2},
		{[]string{"stats", "-words", "1000000"}, "", 2},
		{[]string{"privatize", "-ledger", t.TempDir(), "-cap", "1"}, "the cat\n", 3},
		{[]string{"privatize", "-asset", "/dev/zero"}, "x\n", 2},
		{[]string{"privatize", "-asset", t.TempDir()}, "x\n", 2},
		{[]string{"privatize", "-asset", small, "-mechanism", "tem", "-epsilon", "10"}, "x\n", 2},
		{[]string{"privatize", "-asset", small, "-mechanism", "custext", "-epsilon", "10"}, "x\n", 2},
		{[]string{"privatize", "-asset", small, "-mechanism", "1dg", "-epsilon", "1"}, "x\n", 2},
		{[]string{"privatize", "-mechanism", "tem", "-epsilon", "1"}, "x\n", 2},
		{[]string{"privatize", "-preset", "bogus", "-epsilon", "1"}, "x\n", 2},
		{[]string{"privatize", "-asset", small, "-epsilon", "1"}, "the cat\n", 0},
		{[]string{"privatize", "-asset", corrupt}, "x\n", 1},
		{[]string{"privatize", "-asset", filepath.Join(t.TempDir(), "missing.wva")}, "x\n", 1},
	} {
		var out, errb bytes.Buffer
		err := run(tc.args, strings.NewReader(tc.in), &out, &errb)
		if got := exitCode(err); got != tc.code {
			t.Errorf("wordveil %v: exit %d (%v), want %d", tc.args, got, err, tc.code)
		}
		if tc.code == 2 {
			// Printed once: either the flag package printed it (and main
			// prints nothing) or main prints it (and it is not already on
			// stderr).
			msg := errorMessage(err)
			if msg == "" && errb.Len() == 0 || msg != "" && strings.Contains(errb.String(), msg) {
				t.Errorf("wordveil %v: stderr %q, main prints %q", tc.args, errb.String(), msg)
			}
		}
	}
}

// TestMistypedFlag: in every subcommand, a flag it does not define is a
// usage error (exit 2) that prints the error and one line pointing at -h,
// not the subcommand's whole help; -h still prints the help.
func TestMistypedFlag(t *testing.T) {
	for _, cmd := range [][]string{
		{"privatize"}, {"demo"}, {"stats"}, {"bench"}, {"audit"}, {"assets", "inspect"}, {"neighbours"},
	} {
		name := "wordveil " + strings.Join(cmd, " ")
		t.Run(name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(append(cmd[:len(cmd):len(cmd)], "-mechansim", "brr"), strings.NewReader("x\n"), &out, &errb)
			if exitCode(err) != 2 || errorMessage(err) != "" || out.Len() != 0 {
				t.Fatalf("err %v (exit %d), stdout %q", err, exitCode(err), out.String())
			}
			want := name + ": flag provided but not defined: -mechansim\nRun '" + name + " -h' for usage.\n"
			if errb.String() != want {
				t.Errorf("stderr %q, want %q", errb.String(), want)
			}
			errb.Reset()
			if err := run(append(cmd[:len(cmd):len(cmd)], "-h"), nil, &out, &errb); exitCode(err) != 0 || strings.Count(errb.String(), "\n") < 3 {
				t.Errorf("-h: err %v, printed %q", err, errb.String())
			}
		})
	}
}
