package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
)

// TestPrivatizeMechanismNames: every name privatize offers (those New
// builds) works, and the "+" variants, which publish some words unchanged
// by construction ("the bill is on fire" came back verbatim from
// custext+), are usage errors with nothing written; so is an ε below the
// mechanism's floor, down to the smallest float64, for the main ε and a
// class ε alike.
func TestPrivatizeMechanismNames(t *testing.T) {
	const in = "the bill is on fire and the system is down\n"
	for _, name := range mechanism.Offered() {
		args := []string{"-preset", "balanced"}
		if name == mechanism.NameCusText {
			args = []string{"-preset", "light"} // its only level on the default asset
		}
		var out, errb bytes.Buffer
		err := run(append([]string{"privatize", "-mechanism", name}, args...), strings.NewReader(in), &out, &errb)
		if code := exitCode(err); code != 0 || out.Len() == 0 {
			t.Errorf("%s %v: exit %d (%v), output %q", name, args, code, err, out.String())
		}
		for _, tiny := range []string{"1e-16", "1e-17", "1e-20", "1e-300", "5e-324"} {
			for _, bad := range [][]string{
				{"-epsilon", tiny},
				append(append([]string{}, args...), "-class-epsilon", "rare="+tiny, "-rare-rank", "1000"),
			} {
				out.Reset()
				err := run(append([]string{"privatize", "-mechanism", name}, bad...), strings.NewReader(in), &out, &errb)
				if code := exitCode(err); code != 2 || out.Len() != 0 || !strings.Contains(errorMessage(err), "floor") {
					t.Errorf("%s %v: exit %d (%v), wrote %q; want exit 2 for the floor and nothing", name, bad, code, err, out.String())
				}
			}
		}
	}
	for _, name := range []string{"custext+", "santext+"} {
		var out, errb bytes.Buffer
		err := run([]string{"privatize", "-mechanism", name, "-epsilon", "1"}, strings.NewReader(in), &out, &errb)
		if code := exitCode(err); code != 2 || out.Len() != 0 {
			t.Errorf("%s: exit %d (%v), wrote %q; want exit 2 and nothing", name, code, err, out.String())
		}
	}
}
