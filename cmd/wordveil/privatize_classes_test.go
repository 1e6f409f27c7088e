package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/core"
)

// TestPrivatizeClassEpsilon: -class-epsilon bills each word at its class's
// ε, and the ledger is charged that exact sum times P_avg.
func TestPrivatizeClassEpsilon(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		in    string
		words int
		total float64
	}{
		// "The" and "Smith" are capitalized (0.5), "cat" default (1).
		{[]string{"-class-epsilon", "capitalized=0.5"}, "The cat Smith\n", 3, 2},
		// "5" is a number (0.25); "NASA" is UPPER (0.5).
		{[]string{"-class-epsilon", "capitalized=0.5,number=0.25"}, "NASA has 5 cats\n", 4, 0.5 + 1 + 0.25 + 1},
		// Words of rank ≥ 40000 are rare (0.125): "recycles" is, "the" is not.
		{[]string{"-class-epsilon", "rare=0.125", "-rare-rank", "40000"}, "the recycles\n", 2, 1 + 0.125},
		// Negative control: without classes every word costs the main ε.
		{nil, "The cat Smith\n", 3, 3},
	} {
		args := append([]string{"privatize", "-mechanism", "1dg", "-epsilon", "1", "-json", "-ledger", t.TempDir()}, tc.args...)
		var out, errb bytes.Buffer
		if err := run(args, strings.NewReader(tc.in), &out, &errb); err != nil {
			t.Fatalf("%v: %v (%s)", tc.args, err, errb.String())
		}
		var r record
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%v: %v: %s", tc.args, err, out.String())
		}
		if r.Words != tc.words || r.TotalEpsilon == nil || *r.TotalEpsilon != tc.total {
			t.Errorf("%v: words %d total %v, want %d and %v", tc.args, r.Words, r.TotalEpsilon, tc.words, tc.total)
			continue
		}
		if c := *r.Ledger.BlockCharge; math.Abs(c-tc.total**r.PAvg) > 1e-9*c {
			t.Errorf("%v: ledger charged %v, want %v", tc.args, c, tc.total**r.PAvg)
		}
		t.Logf("%v %q: words %d, totalEpsilon %v, charge %.4f", tc.args, tc.in, r.Words, *r.TotalEpsilon, *r.Ledger.BlockCharge)
	}
}

// TestPrivatizeClassEpsilonUsage: every bad per-class setting is a usage
// error (exit 2), and nothing is written.
func TestPrivatizeClassEpsilonUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-class-epsilon", ""},
		{"-class-epsilon", "rare"},
		{"-class-epsilon", "names=0.5"},
		{"-class-epsilon", "capitalized=0.5,capitalized=0.7"},
		{"-class-epsilon", "capitalized=-1"},
		{"-class-epsilon", "capitalized=0"},
		{"-class-epsilon", "capitalized=NaN"},
		{"-class-epsilon", "capitalized=Inf"},
		{"-class-epsilon", "capitalized=1e300"},
		{"-class-epsilon", "capitalized=1.000001e6"},
		{"-class-epsilon", "capitalized=1e400"},
		{"-class-epsilon", "capitalized=50"}, // saturated for BRR
		{"-class-epsilon", "capitalized=0.5,"},
		{"-class-epsilon", "rare=0.5"},                           // no -rare-rank
		{"-rare-rank", "10"},                                     // no rare ε
		{"-class-epsilon", "rare=0.5", "-rare-rank", "0"},        // rank 0
		{"-class-epsilon", "rare=0.5", "-rare-rank", "-3"},       // negative
		{"-class-epsilon", "rare=0.5", "-rare-rank", "99999999"}, // beyond the vocabulary
		{"-class-epsilon", "capitalized=0.5", "-epsilon", "1", "-memo", "DIR"},
	} {
		for i := range args {
			if args[i] == "DIR" {
				args[i] = t.TempDir()
			}
		}
		var out, errb bytes.Buffer
		err := run(append([]string{"privatize"}, args...), strings.NewReader("The cat\n"), &out, &errb)
		if !errors.Is(err, errUsage) || exitCode(err) != 2 || out.Len() != 0 {
			t.Errorf("%v: err %v (exit %d), output %q; want a usage error", args, err, exitCode(err), out.String())
		}
	}
	// Negative control: a memo with classes at the main ε is accepted.
	var out, errb bytes.Buffer
	dir := t.TempDir()
	if err := run([]string{"privatize", "-epsilon", "1", "-class-epsilon", "capitalized=1", "-memo", dir}, strings.NewReader("The cat\n"), &out, &errb); err != nil {
		t.Errorf("classes at the main ε with a memo: %v (%s)", err, errb.String())
	}
}

// TestParseClassEpsilon: the parser's table.
func TestParseClassEpsilon(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want core.Classes
		ok   bool
	}{
		{"rare=0.3", core.Classes{Rare: 0.3}, true},
		{"rare=0.3,capitalized=0.5,number=2", core.Classes{Rare: 0.3, Capitalized: 0.5, Number: 2}, true},
		{" number = 1e-3 ", core.Classes{Number: 1e-3}, true},
		{"", core.Classes{}, false},
		{"=1", core.Classes{}, false},
		{"rare=", core.Classes{}, false},
		{"rare=0x1p-2", core.Classes{Rare: 0.25}, true},
		{"rare=1,rare=1", core.Classes{}, false},
		{"Rare=1", core.Classes{}, false},
		{"rare=1e6", core.Classes{Rare: 1e6}, true},
		{"rare=0", core.Classes{}, false},
		{"rare=-0", core.Classes{}, false},
		{"rare=x", core.Classes{}, false},
		// The range is Open's to check (TestPrivatizeClassEpsilonUsage).
		{"rare=1.000001e6", core.Classes{Rare: 1.000001e6}, true},
		{"rare=-1", core.Classes{Rare: -1}, true},
	} {
		got, err := parseClassEpsilon(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, errUsage) {
			t.Errorf("%q: %v is not a usage error", tc.in, err)
		}
	}
}

// FuzzParseClassEpsilon: the parser never panics, and whatever it accepts
// sets at least one class and no 0 that would read as "not set"; Open
// checks the range.
func FuzzParseClassEpsilon(f *testing.F) {
	for _, s := range []string{"rare=0.3", "rare=0.3,capitalized=0.5,number=2", "", ",", "rare=NaN", "x=1=2", "rare=1,rare=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseClassEpsilon(s)
		if err != nil {
			if c != (core.Classes{}) || !errors.Is(err, errUsage) {
				t.Fatalf("%q: error %v with result %+v", s, err, c)
			}
			return
		}
		if c.RareRank != 0 || c == (core.Classes{}) {
			t.Fatalf("%q: accepted %+v", s, c)
		}
	})
}
