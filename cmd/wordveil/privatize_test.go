package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/core"
)

func TestPrivatizeCmd(t *testing.T) {
	in := "Call Dr. Smith at 555-0100 or smith@example.org\n\nThe cat sat.\n"
	for _, mech := range core.MechanismNames() {
		if mech == core.NameTEM {
			continue // no preset: tested below with -epsilon
		}
		var out, errb bytes.Buffer
		if err := run([]string{"privatize", "-mechanism", mech}, strings.NewReader(in), &out, &errb); err != nil {
			t.Fatalf("%s: %v (%s)", mech, err, errb.String())
		}
		got := out.String()
		if strings.Count(got, "\n") != 3 || strings.Contains(got, "555") || strings.Contains(got, "@") || strings.Contains(got, "Smith") && mech == "" {
			t.Fatalf("%s: output %q", mech, got)
		}
	}
	var out, errb bytes.Buffer
	if err := run([]string{"privatize", "-mechanism", "tem", "-epsilon", "9", "-json", "-oov", "placeholder"}, strings.NewReader("the 42 cats\n"), &out, &errb); err != nil {
		t.Fatal(err)
	}
	var res core.TextResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res.Accounting.Words != 2 || res.Accounting.OOV != 1 || !strings.Contains(res.Text, "•") {
		t.Fatalf("json output %q: %v", out.String(), err)
	}
}

func TestPrivatizeSeedWarnsAndReproduces(t *testing.T) {
	var a, b, errb bytes.Buffer
	in := "privacy matters for everyone\n"
	run([]string{"privatize", "-seed", "7"}, strings.NewReader(in), &a, &errb)
	run([]string{"privatize", "-seed", "7"}, strings.NewReader(in), &b, &errb)
	if a.String() != b.String() || !strings.Contains(errb.String(), "WARNING") {
		t.Fatalf("seeded runs %q vs %q, stderr %q", a.String(), b.String(), errb.String())
	}
}

func TestPrivatizeMemo(t *testing.T) {
	dir := t.TempDir()
	var a, b, errb bytes.Buffer
	in := "privacy matters\n"
	if err := run([]string{"privatize", "-mechanism", "1dg", "-preset", "strong", "-memo", dir}, strings.NewReader(in), &a, &errb); err != nil {
		t.Fatal(err)
	}
	run([]string{"privatize", "-mechanism", "1dg", "-preset", "strong", "-memo", dir}, strings.NewReader(in), &b, &errb)
	if a.String() != b.String() {
		t.Fatalf("memoized responses differ: %q vs %q", a.String(), b.String())
	}
}

func TestPrivatizeErrors(t *testing.T) {
	for _, args := range [][]string{
		{"privatize", "-mechanism", "vickrey"},
		{"privatize", "-epsilon", "-1"},
		{"privatize", "-preset", "paranoid"},
		{"privatize", "-oov", "keep"},
		{"privatize", "extra"},
		{"privatize", "-mechanism", "tem"}, // no preset reachable
	} {
		var out, errb bytes.Buffer
		if err := run(args, strings.NewReader("x\n"), &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("%v: err = %v, want usage", args, err)
		}
	}
	// Budget: a cap smaller than one word's loss refuses the first line and
	// writes nothing.
	var out, errb bytes.Buffer
	err := run([]string{"privatize", "-ledger", t.TempDir(), "-cap", "1"}, strings.NewReader("the cat\n"), &out, &errb)
	if !errors.Is(err, errBudget) || out.Len() != 0 {
		t.Fatalf("budget: err %v, output %q", err, out.String())
	}
}

// TestPrivatizeStreamsLargeInput: a 1 MB input goes through line by line.
func TestPrivatizeStreamsLargeInput(t *testing.T) {
	line := strings.Repeat("the quick brown fox jumps over the lazy dog ", 20) + "\n"
	in := strings.Repeat(line, (1<<20)/len(line)+1)
	var out, errb bytes.Buffer
	if err := run([]string{"privatize", "-mechanism", "1dg"}, strings.NewReader(in), &out, &errb); err != nil {
		t.Fatal(err)
	}
	if strings.Count(out.String(), "\n") != strings.Count(in, "\n") {
		t.Fatalf("lines in %d, out %d", strings.Count(in, "\n"), strings.Count(out.String(), "\n"))
	}
}

func TestDemo(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run([]string{"demo"}, nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"brr", "tem-hamming", "1dg", "1dt"} {
		if !strings.Contains(out.String(), "\n"+m+" ") {
			t.Fatalf("demo output lacks %s:\n%s", m, out.String())
		}
	}
}
