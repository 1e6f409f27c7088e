package core

import (
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/wordveil/wordveil/assets"
)

// TestReadmeQuickStart: the README's Go quick start is Example's body, so
// it compiles and runs (with checked output) as the example does.
func TestReadmeQuickStart(t *testing.T) {
	ex, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, body, ok := strings.Cut(string(ex), "// quick start: begin\n")
	body, _, ok2 := strings.Cut(body, "\t// quick start: end")
	if !ok || !ok2 {
		t.Fatal("example_test.go has no quick start markers")
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	want := strings.Join(lines, "\n")
	if !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not contain the quick start of example_test.go:\n%s", want)
	}
}

// TestExcludedWordsNeverOutputByDefault: the zero Config never releases a
// word of the asset's exclusion list; AllowExcludedOutputs (the control)
// does, so the test can fail.
func TestExcludedWordsNeverOutputByDefault(t *testing.T) {
	a, err := slimDefault()
	if err != nil {
		t.Fatal(err)
	}
	if a.Header.Excluded == nil || len(a.Header.Excluded.IDs) == 0 {
		t.Fatal("the embedded asset has no exclusion list")
	}
	excluded := map[string]bool{}
	for _, id := range a.Header.Excluded.IDs {
		excluded[strings.ToLower(a.Word(int(id)))] = true
	}
	// Words near excluded ones: the excluded words themselves, typed by a
	// user, are what most often yields an excluded output.
	var words []string
	for _, id := range a.Header.Excluded.IDs {
		words = append(words, a.Word(int(id)))
	}
	n := 20000
	if testing.Short() {
		n = 8000 // the control expects ~20 excluded outputs at this size (p of 0 ≈ e^-20)
	}
	text := make([]string, 0, n)
	for i := 0; len(text) < n; i++ {
		text = append(text, words[i%len(words)])
	}
	count := func(cfg Config) int {
		p, err := Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if err := UseEvaluationSeed(p, 7); err != nil {
			t.Fatal(err)
		}
		res, err := p.Privatize(strings.Join(text, " "))
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, w := range strings.Fields(res.Text) {
			if excluded[strings.ToLower(w)] {
				bad++
			}
		}
		return bad
	}
	if bad := count(Config{Level: Strong}); bad != 0 {
		t.Errorf("default config: %d excluded words output", bad)
	}
	if bad := count(Config{Level: Strong, AllowExcludedOutputs: true}); bad == 0 {
		t.Error("control: with AllowExcludedOutputs no excluded word was output; the test cannot fail")
	}
}

// TestOpenValidates: every field at its smallest and largest accepted value
// and just outside, at zero, and the combinations that mean nothing.
func TestOpenValidates(t *testing.T) {
	dir := t.TempDir()
	secret := make([]byte, 32)
	for _, tc := range []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"zero value", Config{}, true},
		{"every mechanism at a level", Config{Mechanism: OneDT, Level: Light}, true},
		{"unknown mechanism", Config{Mechanism: "brr "}, false},
		{"keep-words variant", Config{Mechanism: "custext+"}, false},
		{"unknown level", Config{Level: "medium"}, false},
		{"ε without a level", Config{Epsilon: 0.3}, true},
		{"level and ε", Config{Level: Strong, Epsilon: 0.3}, false},
		{"the default level named, and ε", Config{Level: Balanced, Epsilon: 0.3}, false},
		{"ε negative", Config{Epsilon: -1}, false},
		{"ε NaN", Config{Epsilon: math.NaN()}, false},
		{"ε +Inf", Config{Epsilon: math.Inf(1)}, false},
		{"ε above 10^6", Config{Epsilon: 1e6 * (1 + 1e-15)}, false},
		{"ε at BRR's floor", Config{Epsilon: 0.001 / 256}, true},
		{"ε below BRR's floor", Config{Epsilon: 0.001 / 256 * 0.999}, false},
		{"ε saturated", Config{Epsilon: 1e6}, false},
		{"ε saturated, allowed", Config{Epsilon: 1e6, AllowSaturatedEpsilon: true}, true},
		{"1-DT ε below floor", Config{Mechanism: OneDT, Epsilon: 1e-16}, false},
		{"Euclidean TEM, not offered", Config{Mechanism: "tem", Epsilon: 10}, false},
		{"class ε negative", Config{Classes: Classes{Capitalized: -1}}, false},
		{"class ε NaN", Config{Classes: Classes{Number: math.NaN()}}, false},
		{"rare without rank", Config{Classes: Classes{Rare: 1}}, false},
		{"rank without rare", Config{Classes: Classes{RareRank: 5}}, false},
		{"rank beyond vocabulary", Config{Classes: Classes{Rare: 1, RareRank: 50000}}, false},
		{"rank at last word", Config{Classes: Classes{Rare: 1, RareRank: 49999}}, true},
		{"rank above int32", Config{Classes: Classes{Rare: 1, RareRank: int(aboveInt32)}}, false}, // wraps negative where int has 32 bits: refused too
		{"OOV unknown", Config{OOV: "pass"}, false},
		{"numbers unknown", Config{Numbers: "keep"}, false},
		{"max text negative", Config{MaxTextBytes: -1}, false},
		{"max text at limit", Config{MaxTextBytes: 1 << 30}, true},
		{"max text above limit", Config{MaxTextBytes: 1<<30 + 1}, false},
		{"cap without ledger", Config{Caps: Caps{Lifetime: 1}}, false},
		{"period without ledger", Config{Caps: Caps{Period: time.Hour}}, false},
		{"cap NaN", Config{LedgerDir: dir + "/l1", Caps: Caps{Lifetime: math.NaN()}}, false},
		{"cap +Inf", Config{LedgerDir: dir + "/l2", Caps: Caps{PerPeriod: math.Inf(1)}}, false},
		{"period negative", Config{LedgerDir: dir + "/l3", Caps: Caps{Period: -1}}, false},
		{"period 100 years", Config{LedgerDir: dir + "/l4", Caps: Caps{PerPeriod: 1, Period: maxPeriod}}, true},
		{"period above 100 years", Config{LedgerDir: dir + "/l5", Caps: Caps{PerPeriod: 1, Period: maxPeriod + 1}}, false},
		{"anchor without state", Config{Anchor: mapAnchor{}}, false},
		{"memo without secret", Config{MemoDir: dir + "/m1"}, false},
		{"memo secret short", Config{MemoDir: dir + "/m2", MemoSecret: secret[:31]}, false},
		{"memo secret without memo", Config{MemoSecret: secret}, false},
		{"memo and class ε", Config{MemoDir: dir + "/m3", MemoSecret: secret, Epsilon: 1, Classes: Classes{Number: 2}}, false},
		{"memo", Config{MemoDir: dir + "/m4", MemoSecret: secret}, true},
		{"asset file and bytes", Config{AssetFile: "x", Asset: []byte{1}}, false},
		{"asset bytes empty", Config{Asset: []byte{}}, false},
		{"asset file missing", Config{AssetFile: dir + "/none.wva"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Open(tc.cfg)
			if (err == nil) != tc.ok {
				t.Fatalf("Open: %v, want ok=%v", err, tc.ok)
			}
			if err != nil {
				if !strings.HasPrefix(err.Error(), "wordveil: ") || strings.Count(err.Error(), "wordveil: ") != 1 {
					t.Errorf("message %q: want the prefix once", err)
				}
				return
			}
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// aboveInt32 is one past the largest RareRank, as a variable: a constant
// would not compile where int has 32 bits.
var aboveInt32 = int64(math.MaxInt32) + 1

// mapAnchor is an Anchor in memory.
type mapAnchor map[string][]byte

func (m mapAnchor) Load(name string) ([]byte, error) { return m[name], nil }
func (m mapAnchor) Store(name string, state []byte) error {
	m[name] = append([]byte(nil), state...)
	return nil
}

// TestNilZeroAndClosed: no method panics on a nil, zero-value or closed
// Privatizer; each returns its documented error.
func TestNilZeroAndClosed(t *testing.T) {
	open, err := Open(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := open.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    *Privatizer
		want error
	}{
		{"nil", nil, ErrInvalidConfig},
		{"zero", &Privatizer{}, ErrInvalidConfig},
		{"closed", open, ErrClosed},
	} {
		if _, err := tc.p.Privatize("hello"); !errors.Is(err, tc.want) {
			t.Errorf("%s: Privatize: %v, want %v", tc.name, err, tc.want)
		}
		if _, err := tc.p.PrivatizeBlock(context.Background(), []string{"hello"}); !errors.Is(err, tc.want) {
			t.Errorf("%s: PrivatizeBlock: %v, want %v", tc.name, err, tc.want)
		}
		if _, err := tc.p.Deniability(1, 1); !errors.Is(err, tc.want) {
			t.Errorf("%s: Deniability: %v, want %v", tc.name, err, tc.want)
		}
		if info := tc.p.Info(); info != (Info{}) {
			t.Errorf("%s: Info: %+v", tc.name, info)
		}
		if err := tc.p.Close(); err != nil {
			t.Errorf("%s: Close: %v", tc.name, err)
		}
	}
}

// TestSeededIsReproducible: the evaluation path gives the same text for
// the same seed, and the product path (crypto/rand) differs between two
// privatizers (a control that a fixed source is not used by default).
func TestSeededIsReproducible(t *testing.T) {
	text := strings.Repeat("the quick brown fox jumps over the lazy dog ", 20)
	run := func(seed uint64) string {
		p, err := Open(Config{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if seed != 0 {
			if err := UseEvaluationSeed(p, seed); err != nil {
				t.Fatal(err)
			}
		}
		res, err := p.Privatize(text)
		if err != nil {
			t.Fatal(err)
		}
		return res.Text
	}
	if a, b := run(1), run(1); a != b {
		t.Error("same seed, different outputs")
	}
	if a, b := run(1), run(2); a == b {
		t.Error("different seeds, same output")
	}
	if a, b := run(0), run(0); a == b {
		t.Error("two secure privatizers gave the same 180-word output")
	}
}

// TestTEMNotOffered: "tem", TEM over the asset's Euclidean lists, is not
// offered at any ε or level, on the embedded asset or another: Open
// refuses it (ErrInvalidConfig) with a message that names 1-DT, the
// device's TEM over precomputed neighbour lists, and, where the asset
// has the lists, the only ε they admit.
func TestTEMNotOffered(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want []string
	}{
		{"at a level", Config{Mechanism: "tem"}, []string{"γ_max 3.81", "ε ≥ 9.306"}},
		{"at ε 10, above its lists' floor", Config{Mechanism: "tem", Epsilon: 10}, []string{"ε ≥ 9.306"}},
		{"at a saturated ε, allowed", Config{Mechanism: "tem", Epsilon: 1e6, AllowSaturatedEpsilon: true}, nil},
		{"on the asset's bytes", Config{Mechanism: "tem", Epsilon: 10, Asset: assets.DefaultBytes()}, []string{"γ_max 3.81"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Open(tc.cfg)
			if !errors.Is(err, ErrInvalidConfig) {
				p.Close()
				t.Fatalf("Open: %v, want ErrInvalidConfig", err)
			}
			for _, s := range append(tc.want, "tem (TEM over", "is not offered", "1dt (TEM over 1-Diffractor's precomputed lists)") {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q lacks %q", err, s)
				}
			}
		})
	}
}
