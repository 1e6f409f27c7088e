package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// capWordsRecord is the part of a -json record these tests read.
type capWordsRecord struct {
	Words  int `json:"words"`
	Ledger struct {
		PeriodWordsRemaining   *int64 `json:"periodWordsRemaining"`
		LifetimeWordsRemaining *int64 `json:"lifetimeWordsRemaining"`
	} `json:"ledger"`
}

// TestPrivatizeCapWords: `-cap-words N` and `-cap-period-words N` grant
// exactly N words, in one line or one word a line, across runs on the same
// ledger, and refuse word N+1 with the budget's exit code (3) and no
// output; each record says how many words are left.
func TestPrivatizeCapWords(t *testing.T) {
	for _, flag := range []string{"-cap-words", "-cap-period-words"} {
		for _, mech := range []string{"brr", "1dt"} {
			for _, tc := range []struct {
				n       int
				perLine bool // one word a line (the CLI charges the lines at hand as one block)
			}{{1, false}, {7, false}, {7, true}, {500, false}} {
				name := fmt.Sprintf("%s/%s/N=%d/per-line=%v", flag, mech, tc.n, tc.perLine)
				t.Run(name, func(t *testing.T) {
					args := []string{"privatize", "-json", "-mechanism", mech, "-preset", "balanced",
						"-ledger", t.TempDir(), "-state", t.TempDir(), flag, fmt.Sprint(tc.n)}
					// N words, in two runs when N > 1: the ledger carries over.
					first, spent := max(1, tc.n/2), 0
					for _, words := range []int{first, tc.n - first} {
						if words == 0 {
							continue
						}
						sep := " "
						if tc.perLine {
							sep = "\n"
						}
						in := strings.Repeat("house"+sep, words-1) + "house\n"
						var out, errb bytes.Buffer
						if err := run(args, strings.NewReader(in), &out, &errb); err != nil {
							t.Fatalf("%d words: %v (%s)", words, err, errb.String())
						}
						got := 0
						var last capWordsRecord
						for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
							if err := json.Unmarshal([]byte(l), &last); err != nil {
								t.Fatal(err)
							}
							got += last.Words
						}
						if got != words {
							t.Fatalf("%d words in, %d privatized", words, got)
						}
						left := last.Ledger.LifetimeWordsRemaining
						other := last.Ledger.PeriodWordsRemaining
						if flag == "-cap-period-words" {
							left, other = other, left
						}
						if left == nil || other != nil {
							t.Fatalf("words left %v, other cap's %v: want a count and null", left, other)
						}
						spent += words
						if *left != int64(tc.n-spent) {
							t.Fatalf("%d of %d words spent, %d left", spent, tc.n, *left)
						}
					}
					var out, errb bytes.Buffer
					err := run(args, strings.NewReader("house\n"), &out, &errb)
					if code := exitCode(err); code != 3 || out.Len() != 0 {
						t.Fatalf("word %d: exit %d (%v), output %q; want exit 3 and no output", tc.n+1, code, err, out.String())
					}
					if !strings.Contains(errorMessage(err)+errb.String(), "budget") {
						t.Errorf("word %d: message %q does not say budget", tc.n+1, errorMessage(err)+errb.String())
					}
				})
			}
		}
	}
}

// TestPrivatizeCapWordsUsage: the word caps are usage errors (exit 2)
// wherever -cap and -cap-period are, and beside them.
func TestPrivatizeCapWordsUsage(t *testing.T) {
	for _, extra := range [][]string{
		{"-cap-words", "5"},                         // no -ledger
		{"-cap-period-words", "5"},                  // no -ledger
		{"-cap-words", "0"},                         // no -ledger, even when 0
		{"{ledger}", "-cap-words", "-1"},            // negative
		{"{ledger}", "-cap-words", "x"},             // not a number
		{"{ledger}", "-cap-words", "1099511627777"}, // above 2^40
		{"{ledger}", "-cap-period-words", "-1"},
		{"{ledger}", "-cap", "1", "-cap-words", "5"},
		{"{ledger}", "-cap-period", "1", "-cap-period-words", "5"},
		{"{ledger}", "-cap-period-words", "5", "-period", "0s"},
		{"{ledger}", "-mechanism", "custext", "-preset", "light", "-cap-words", "5"}, // no cost per word
	} {
		args := []string{"privatize"}
		for _, a := range extra {
			if a == "{ledger}" {
				args = append(args, "-ledger", t.TempDir(), "-state", t.TempDir())
				continue
			}
			args = append(args, a)
		}
		var out, errb bytes.Buffer
		err := run(args, strings.NewReader("house\n"), &out, &errb)
		if code := exitCode(err); code != 2 {
			t.Errorf("%q: exit %d (%v %s), want 2", args[1:], code, err, errb.String())
		}
	}
	// The two kinds side by side are fine.
	args := []string{"privatize", "-ledger", t.TempDir(), "-state", t.TempDir(), "-cap", "1e12", "-cap-period-words", "3"}
	var out, errb bytes.Buffer
	if err := run(args, strings.NewReader("house\n"), &out, &errb); err != nil {
		t.Errorf("%q: %v (%s)", args[1:], err, errb.String())
	}
}
