package mechanism

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/wva"
)

// TestErrorStyle: New's errors start with the mechanism's name as the CLI
// spells it ("brr: ", "1dg: ", ...), name it once, keep the sentinel for
// errors.Is, and do not repeat the sentinel's generic text where the
// specific text says more.
func TestErrorStyle(t *testing.T) {
	a := defaultAsset(t)
	for _, name := range Names() {
		for _, tc := range []struct {
			what     string
			eps      float64
			sentinel error
		}{
			{"below the floor", 1e-12, ErrInvalidEpsilon},
			{"NaN", math.NaN(), ErrInvalidEpsilon},
			{"above MaxEpsilon", 2e6, ErrInvalidEpsilon},
			{"saturated", 1e6, ErrEpsilonSaturated},
		} {
			_, err := New(name, a, tc.eps, Options{})
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("%s %s: %v, want %v", name, tc.what, err, tc.sentinel)
				continue
			}
			if msg := err.Error(); !styled(msg, name, tc.sentinel) {
				t.Errorf("%s %s: %q: want %q once at the start and no %q", name, tc.what, msg, name+": ", tc.sentinel.Error())
			}
		}
	}
	// Negative controls: messages in the old style fail the check.
	if styled("BRR: "+ErrInvalidEpsilon.Error()+": x", NameBRR, ErrInvalidEpsilon) ||
		styled("brr: "+ErrEpsilonSaturated.Error()+": x", NameBRR, ErrEpsilonSaturated) ||
		styled("tem: tem: x", NameTEM, ErrInvalidEpsilon) {
		t.Fatal("negative control: the style check accepts a message in the old style")
	}
}

// styled reports whether msg starts with name and ": ", contains that
// prefix once, and does not contain the sentinel's text.
func styled(msg, name string, sentinel error) bool {
	return strings.HasPrefix(msg, name+": ") && strings.Count(msg, name+": ") == 1 &&
		!strings.Contains(msg, sentinel.Error())
}

// TestTEMSmallestEpsilon: TEM on the asset's lists with too small an ε
// says the smallest ε the lists support, and that ε is accepted while one
// a step of the printed precision below it is not.
func TestTEMSmallestEpsilon(t *testing.T) {
	a := defaultAsset(t)
	_, err := New(NameTEM, a, 1, Options{})
	if !errors.Is(err, ErrInvalidEpsilon) || !errors.Is(err, wva.ErrGammaMax) {
		t.Fatalf("ε = 1: %v, want ErrInvalidEpsilon and wva.ErrGammaMax", err)
	}
	m := regexp.MustCompile(`use ε ≥ ([0-9.]+)`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("%q does not say the smallest usable ε", err)
	}
	least, _ := strconv.ParseFloat(m[1], 64)
	// The asset's lists reach γ_max = 3.81: ε = 2·ln(0.999·49999/0.001)/3.81.
	if least < 9.2 || least > 9.4 {
		t.Errorf("smallest usable ε %v, want about 9.3 on the default asset", least)
	}
	if _, err := New(NameTEM, a, least, Options{}); err != nil {
		t.Errorf("the ε the message names, %v, is refused: %v", least, err)
	}
	if _, err := New(NameTEM, a, least-0.001, Options{}); !errors.Is(err, wva.ErrGammaMax) {
		t.Errorf("ε = %v, below the one named: %v, want wva.ErrGammaMax (the named ε is not the smallest)", least-0.001, err)
	}
}

func TestRoundUp(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{9.30512, 9.306}, {9.306, 9.306}, {0.000123451, 0.0001235}, {12345.1, 12350}, {0, 0},
	} {
		if got := roundUp(c.x); math.Abs(got-c.want) > 1e-12*c.want || got < c.x {
			t.Errorf("roundUp(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}
