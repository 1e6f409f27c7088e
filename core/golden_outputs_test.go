package core

// The golden outputs: what every mechanism the package offers releases for
// a fixed input and a fixed seeded source, recorded in
// testdata/golden_outputs.json. A change to how the asset is laid out or
// read (issue 26: the asset used in place) must leave every output token
// and every count of the bill unchanged; this test is how that is checked.
//
// Regenerate the file only for a change that is meant to alter outputs,
// and say so in the commit:
//
//	go test -run TestGoldenOutputs -update-golden .
//
// (not with -short, which runs a subset and refuses to write).
//
// What makes it deterministic across runs and machines: each case opens
// its own Privatizer on the embedded asset and gives it its own ChaCha8
// source (internal/seeded; the same stream on every platform), the texts
// are privatized one after another (Privatize, then PrivatizeBlock, which
// privatizes its texts in order on the calling goroutine), and nothing is
// map-ordered. The two explicit ε of a mechanism are computed on the
// machine that runs the test (its accepted range, from the asset), since
// the ceiling is a float computation that may differ in the last bit
// between platforms; the file records every ε and the bill's floats to 10
// (P_avg 6) significant digits, which such a difference cannot reach.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/internal/wva"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden_outputs.json from the current code (TestGoldenOutputs)")

const goldenPath = "testdata/golden_outputs.json"

// goldenInput is the fixed input, one text per line. TestGoldenInputCoverage
// checks that it holds each kind of token the outputs must be pinned for.
var goldenInput = []string{
	"I'm sure you don't want what the people said, and we can't say it won't work.",
	"Alice met Gebrselassie in Zanzibar; NASA's perfunctory platitudes about chrysanthemum.",
	"Alshammar flew from Magherafelt to Taxco to watch a nuthatch (helicobacter, defenestration).",
	"The qwzxv blorptang was sesquipedalian: café naïve wordveil Привет.",
	"In 1990 I paid 42 dollars, then 3.5 more in 2026 and 12345 at 10am.",
	"Write to alice@example.com or see https://example.org/x?y=1 today!",
	"Great job 🎉🙂 — really?! \"Quoted\" 'single' ... HELLO World\tTabbed  spaced.",
	"That stupid idiot said crap; what bullshit, damn it.",
	"A well-known e-mail, state-of-the-art lol btw omg.",
}

// The words of goldenInput that stand for each kind of token, checked
// against the embedded asset by TestGoldenInputCoverage (lower case, as
// the asset is looked up).
var (
	goldenFrequent = []string{"i", "you", "the", "what", "said", "want"} // vocabulary rank < 1000
	goldenRare     = []string{"perfunctory", "platitudes", "gebrselassie"}
	goldenStandIns = []string{"alshammar", "magherafelt", "taxco", "nuthatch", "helicobacter", "defenestration"}
	goldenNeither  = []string{"qwzxv", "blorptang", "sesquipedalian", "café", "naïve", "wordveil", "привет"}
	goldenNumbers  = []string{"1990", "42"}           // in the vocabulary
	goldenNumOOV   = []string{"3.5", "2026", "12345"} // numbers it lacks
	goldenExcluded = []string{"stupid", "idiot", "crap", "bullshit", "ca", "wo"}
	goldenClitics  = []string{"'m", "n't", "'s"}
)

// goldenRareRank is where TestGoldenInputCoverage starts calling a word
// rare.
const goldenRareRank = 40000

// goldenCase is one configuration. eps says which ε: "" for cfg's level,
// "floor" and "ceiling" for the ends of the mechanism's accepted range.
type goldenCase struct {
	name  string
	cfg   Config
	eps   string
	short bool // also run with -short
}

// goldenCases lists every mechanism at every level and at the smallest
// and largest ε it accepts, then one case per non-default setting of the
// outputs and the text policies. With -short it runs each mechanism once
// (Balanced), 1-DT at its floor, and three of the policy cases: the full
// table takes about 9 s under the race detector on 2 cores, the subset
// about 2 s. Euclidean TEM, which this package no longer offers, keeps
// its two cases (at its floor and ceiling) at the engine level:
// internal/privatize's TestGoldenTEM.
func goldenCases() []goldenCase {
	var cs []goldenCase
	for _, m := range []Mechanism{BRR, TEMHamming, OneDG, OneDT, SanText, CusText} {
		for _, l := range []Level{Strong, Balanced, Light} {
			if !defaultHasPreset(m, l) {
				continue // out of the mechanism's reach on this asset: TestGoldenUnreachableLevels
			}
			cs = append(cs, goldenCase{name: fmt.Sprintf("%s/%s", m, l), cfg: Config{Mechanism: m, Level: l}, short: l == Balanced})
		}
		for _, e := range []string{"floor", "ceiling"} {
			cs = append(cs, goldenCase{name: fmt.Sprintf("%s/eps=%s", m, e), cfg: Config{Mechanism: m}, eps: e, short: m == OneDT && e == "floor"})
		}
	}
	return append(cs,
		goldenCase{name: "brr/balanced/excluded-outputs", cfg: Config{Mechanism: BRR, Level: Balanced, AllowExcludedOutputs: true}, short: true},
		goldenCase{name: "1dg/balanced/excluded-outputs", cfg: Config{Mechanism: OneDG, Level: Balanced, AllowExcludedOutputs: true}},
		goldenCase{name: "brr/balanced/oov=placeholder", cfg: Config{Mechanism: BRR, Level: Balanced, OOV: Placeholder}, short: true},
		goldenCase{name: "custext/light/oov=placeholder<?>", cfg: Config{Mechanism: CusText, Level: Light, OOV: Placeholder, Placeholder: "<?>"}},
		goldenCase{name: "1dt/balanced/numbers=replace", cfg: Config{Mechanism: OneDT, Level: Balanced, Numbers: ReplaceNumbers}, short: true},
		goldenCase{name: "santext/balanced/punctuation", cfg: Config{Mechanism: SanText, Level: Balanced, PrivatizePunctuation: true}},
		goldenCase{name: "brr/balanced/classes", cfg: Config{Mechanism: BRR, Level: Balanced,
			Classes: Classes{RareRank: goldenRareRank, Rare: 0.2, Capitalized: 0.3, Number: 0.1}}},
	)
}

// defaultHasPreset reports whether the embedded asset calibrated m at l.
func defaultHasPreset(m Mechanism, l Level) bool {
	a, err := wva.Default()
	if err != nil {
		panic(err)
	}
	_, err = mechanism.Preset(a, string(m), string(l))
	return err == nil
}

// TestGoldenUnreachableLevels: a level the calibration could not reach
// for a mechanism (the attacker recovers more than its target even as
// ε → 0: CusText at strong and balanced on the default asset) is refused
// by Open with ErrInvalidConfig naming it, never served at some other ε.
func TestGoldenUnreachableLevels(t *testing.T) {
	missing := 0
	for _, m := range []Mechanism{BRR, TEMHamming, OneDG, OneDT, SanText, CusText} {
		for _, l := range []Level{Strong, Balanced, Light} {
			if defaultHasPreset(m, l) {
				continue
			}
			missing++
			p, err := Open(Config{Mechanism: m, Level: l})
			if err == nil {
				p.Close()
				t.Fatalf("%s/%s: Open accepted a level the asset lacks", m, l)
			}
			if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), string(l)) {
				t.Errorf("%s/%s: %v", m, l, err)
			}
		}
	}
	// The default asset's CusText reaches light only (its sets each hold
	// a frequent word the attacker guesses at any ε).
	if missing != 2 || !defaultHasPreset(CusText, Light) {
		t.Errorf("%d levels out of reach, want CusText's strong and balanced", missing)
	}
}

// goldenRecord is what one case released.
type goldenRecord struct {
	Case    string `json:"case"`
	Seed    uint64 `json:"seed"`
	Epsilon string `json:"epsilon"` // the main ε, 10 significant digits
	Metric  string `json:"metric"`
	// Lines are the outputs of Privatize, one call per input line, then
	// Block those of one PrivatizeBlock of every line, from the same
	// source.
	Lines []goldenLine `json:"lines"`
	Block []goldenLine `json:"block"`
}

// goldenLine is one output text and its bill.
type goldenLine struct {
	Text string `json:"text"`
	Bill string `json:"bill"`
}

func TestGoldenOutputs(t *testing.T) {
	if *updateGolden && testing.Short() {
		t.Fatal("-update-golden needs the full table: run without -short")
	}
	var got []goldenRecord
	for _, c := range goldenCases() {
		if testing.Short() && !c.short {
			continue
		}
		got = append(got, runGoldenCase(t, c))
	}
	if *updateGolden {
		writeGolden(t, got)
		return
	}
	want := readGolden(t)
	if n, first := diffGolden(got, want); n > 0 {
		t.Fatalf("%d of %d cases differ from %s; the first: %s\n(if the change is meant to alter outputs: go test -run TestGoldenOutputs -update-golden .)",
			n, len(got), goldenPath, first)
	}
}

// runGoldenCase opens c's Privatizer with its own seeded source and
// privatizes goldenInput line by line, then as one block.
func runGoldenCase(t *testing.T, c goldenCase) goldenRecord {
	t.Helper()
	cfg := c.cfg
	if c.eps != "" {
		lo, hi := acceptedRange(t, cfg)
		cfg.Epsilon = map[string]float64{"floor": lo, "ceiling": hi}[c.eps]
	}
	p, err := Open(cfg)
	if err != nil {
		t.Fatalf("%s: Open: %v", c.name, err)
	}
	defer p.Close()
	seed := goldenSeed(c.name)
	if err := UseEvaluationSeed(p, seed); err != nil {
		t.Fatalf("%s: UseEvaluationSeed: %v", c.name, err)
	}
	rec := goldenRecord{Case: c.name, Seed: seed, Epsilon: fmtFloat(p.Info().Epsilon, 10), Metric: p.Info().Metric}
	for i, line := range goldenInput {
		r, err := p.Privatize(line)
		if err != nil {
			t.Fatalf("%s: line %d: %v", c.name, i+1, err)
		}
		rec.Lines = append(rec.Lines, goldenOf(r))
	}
	rs, err := p.PrivatizeBlock(context.Background(), goldenInput)
	if err != nil {
		t.Fatalf("%s: block: %v", c.name, err)
	}
	for _, r := range rs {
		rec.Block = append(rec.Block, goldenOf(r))
	}
	return rec
}

// acceptedRange returns the smallest and the largest ε Open accepts for
// cfg's mechanism, and checks that Open refuses the next float beyond
// each. They come from the mechanism over every output (Open checks
// saturation before restricting the outputs; the restricted CusText
// reports a larger SaturationEpsilon than Open enforces), opened at a
// saturated ε (the range does not depend on ε).
func acceptedRange(t *testing.T, cfg Config) (lo, hi float64) {
	t.Helper()
	probe := cfg
	probe.Epsilon, probe.AllowSaturatedEpsilon, probe.AllowExcludedOutputs = mechanism.MaxEpsilon, true, true
	p, err := Open(probe)
	if err != nil {
		t.Fatalf("%s: Open for its ε range: %v", cfg.Mechanism, err)
	}
	lo, hi, ok := mechanism.EpsilonRange(p.mech)
	p.Close()
	if !ok {
		t.Fatalf("%s: no ε range", cfg.Mechanism)
	}
	for _, eps := range []float64{math.Nextafter(lo, 0), math.Nextafter(hi, math.Inf(1))} {
		cfg.Epsilon = eps
		if p, err := Open(cfg); !errors.Is(err, ErrInvalidConfig) {
			p.Close()
			t.Fatalf("%s: Open at ε %v, just outside [%v, %v]: %v, want ErrInvalidConfig", cfg.Mechanism, eps, lo, hi, err)
		}
	}
	return lo, hi
}

// goldenSeed is the case's seed: FNV-1a of its name, so that each case
// draws its own stream and adding a case changes no other.
func goldenSeed(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// goldenOf is r's text and every field of its bill, floats rounded (see
// the file comment).
func goldenOf(r Result) goldenLine {
	a := r.Accounting
	bill := fmt.Sprintf("mech=%s words=%d oov=%d memo=%d total=%s pavg=%s", a.Mechanism, a.Words, a.OOV, a.Memoized,
		fmtFloat(a.TotalEpsilon, 10), fmtFloat(a.PAvg, 6))
	if a.LossUnknown != "" {
		bill += " unknown=" + strconv.Quote(a.LossUnknown)
	}
	for _, c := range a.Classes {
		bill += fmt.Sprintf(" %s:eps=%s,words=%d,memo=%d", c.Class, fmtFloat(c.Epsilon, 10), c.Words, c.Memoized)
	}
	return goldenLine{Text: r.Text, Bill: bill}
}

// fmtFloat formats f to digits significant digits ("NaN" for NaN).
func fmtFloat(f float64, digits int) string {
	if math.IsNaN(f) {
		return "NaN"
	}
	return strconv.FormatFloat(f, 'g', digits, 64)
}

func writeGolden(t *testing.T, recs []goldenRecord) {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "\t")
	if err := enc.Encode(recs); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(goldenPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goldenPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d cases to %s", len(recs), goldenPath)
}

func readGolden(t *testing.T) []goldenRecord {
	t.Helper()
	b, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatalf("%v (generate it: go test -run TestGoldenOutputs -update-golden .)", err)
	}
	var recs []goldenRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		t.Fatalf("%s: %v", goldenPath, err)
	}
	return recs
}

// diffGolden compares got with the recorded cases it names (with -short,
// got is a subset) and returns how many differ and the first difference,
// down to the token.
func diffGolden(got, want []goldenRecord) (n int, first string) {
	byName := make(map[string]goldenRecord, len(want))
	for _, w := range want {
		byName[w.Case] = w
	}
	for _, g := range got {
		w, ok := byName[g.Case]
		var d string
		if !ok {
			d = fmt.Sprintf("case %s: not in the file", g.Case)
		} else {
			d = diffRecord(g, w)
		}
		if d != "" {
			if n == 0 {
				first = d
			}
			n++
		}
	}
	if !testing.Short() {
		ran := make(map[string]bool, len(got))
		for _, g := range got {
			ran[g.Case] = true
		}
		for _, w := range want {
			if !ran[w.Case] {
				if n == 0 {
					first = fmt.Sprintf("case %s: in the file but no longer run", w.Case)
				}
				n++
			}
		}
	}
	return n, first
}

// diffRecord returns the first difference between one case's outputs and
// its recorded ones, or "".
func diffRecord(g, w goldenRecord) string {
	for _, f := range []struct{ what, got, want string }{
		{"seed", strconv.FormatUint(g.Seed, 10), strconv.FormatUint(w.Seed, 10)},
		{"ε", g.Epsilon, w.Epsilon},
		{"metric", g.Metric, w.Metric},
	} {
		if f.got != f.want {
			return fmt.Sprintf("case %s: %s %s, want %s", g.Case, f.what, f.got, f.want)
		}
	}
	for _, part := range []struct {
		what      string
		got, want []goldenLine
	}{{"Privatize", g.Lines, w.Lines}, {"PrivatizeBlock", g.Block, w.Block}} {
		if len(part.got) != len(part.want) {
			return fmt.Sprintf("case %s (ε %s): %s: %d lines, want %d", g.Case, g.Epsilon, part.what, len(part.got), len(part.want))
		}
		for i := range part.got {
			gl, wl := part.got[i], part.want[i]
			where := fmt.Sprintf("case %s (ε %s), %s, line %d %q", g.Case, g.Epsilon, part.what, i+1, goldenInput[i])
			if gl.Text != wl.Text {
				return where + ": " + diffTokens(gl.Text, wl.Text)
			}
			if gl.Bill != wl.Bill {
				return fmt.Sprintf("%s: bill %q, want %q", where, gl.Bill, wl.Bill)
			}
		}
	}
	return ""
}

// diffTokens names the first whitespace-separated token where got and
// want differ.
func diffTokens(got, want string) string {
	g, w := strings.Fields(got), strings.Fields(want)
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("token %d is %q, want %q", i+1, g[i], w[i])
		}
	}
	if len(g) != len(w) {
		return fmt.Sprintf("%d tokens, want %d (output %q, want %q)", len(g), len(w), got, want)
	}
	return fmt.Sprintf("the spacing differs: %q, want %q", got, want)
}

// TestGoldenInputCoverage: goldenInput holds each kind of token the golden
// outputs must pin, as the embedded asset classifies them, so that an edit
// of the input (or of the asset) cannot quietly drop one.
func TestGoldenInputCoverage(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	// The content tokens of the input, as the text privatizer looks them
	// up: pieces of words with clitics apart, lower case.
	tokens := map[string]tokenize.Kind{}
	for _, line := range goldenInput {
		for _, tok := range tokenize.Tokenize(line) {
			if tok.Kind.Content() {
				tokens[tokenize.Key(tok.Text)] = tok.Kind
			}
		}
	}
	excluded := map[int]bool{}
	if a.Header.Excluded != nil {
		for _, id := range a.Header.Excluded.IDs {
			excluded[int(id)] = true
		}
	}
	vocab := func(w string) string {
		id, ok := a.Lookup(w)
		if !ok {
			return "not in the vocabulary"
		}
		if excluded[id] {
			return "excluded from outputs"
		}
		return ""
	}
	for _, tc := range []struct {
		kind  string
		words []string
		check func(w string) string // "" when w is of the kind, else why not
	}{
		{"frequent", goldenFrequent, func(w string) string {
			if id, ok := a.Lookup(w); !ok || id >= 1000 {
				return fmt.Sprintf("rank %d (in vocabulary: %v), want < 1000", id, ok)
			}
			return ""
		}},
		{"rare", goldenRare, func(w string) string {
			if id, ok := a.Lookup(w); !ok || id < goldenRareRank {
				return fmt.Sprintf("rank %d (in vocabulary: %v), want ≥ %d", id, ok, goldenRareRank)
			}
			return ""
		}},
		{"stand-in only", goldenStandIns, func(w string) string {
			if _, ok := a.Lookup(w); ok {
				return "in the vocabulary"
			}
			if _, ok := a.StandIn(w); !ok {
				return "not a stand-in"
			}
			return ""
		}},
		{"neither", goldenNeither, func(w string) string {
			_, inV := a.Lookup(w)
			_, inS := a.StandIn(w)
			if inV || inS {
				return fmt.Sprintf("in the vocabulary: %v, a stand-in: %v", inV, inS)
			}
			return ""
		}},
		{"number in the vocabulary", goldenNumbers, vocab},
		{"number not in the vocabulary", goldenNumOOV, func(w string) string {
			if _, ok := a.Lookup(w); ok {
				return "in the vocabulary"
			}
			return ""
		}},
		{"excluded from outputs", goldenExcluded, func(w string) string {
			if id, ok := a.Lookup(w); !ok || !excluded[id] {
				return "not on the exclusion list"
			}
			return ""
		}},
		{"clitic", goldenClitics, vocab},
	} {
		for _, w := range tc.words {
			if _, ok := tokens[w]; !ok {
				t.Errorf("%s word %q: not a token of goldenInput", tc.kind, w)
			}
			if why := tc.check(w); why != "" {
				t.Errorf("%s word %q: %s", tc.kind, w, why)
			}
		}
	}
	// Tokens the OOV policy replaces whatever the asset holds.
	for _, w := range []string{"alice@example.com", "https://example.org/x?y=1", "🎉", "🙂", "10am"} {
		if k, ok := tokens[w]; !ok || k != tokenize.Other {
			t.Errorf("%q: a token of goldenInput: %v, kind %v; want one of kind %v", w, ok, k, tokenize.Other)
		}
	}
	// Layout and case the output must keep.
	for _, s := range []string{"—", "?!", "\t", "  ", "HELLO", "Alice", "I'm", "don't", "can't", "won't", "well-known", "state-of-the-art"} {
		if !strings.Contains(strings.Join(goldenInput, "\n"), s) {
			t.Errorf("goldenInput lacks %q", s)
		}
	}
}

// TestGoldenDiffReports: the comparison reports a changed token, a changed
// bill, a changed ε and a missing case, and nothing for equal records.
func TestGoldenDiffReports(t *testing.T) {
	base := goldenRecord{Case: "brr/x", Seed: 1, Epsilon: "0.5", Metric: "hamming",
		Lines: []goldenLine{{Text: "a b c", Bill: "words=3"}}, Block: []goldenLine{{Text: "a b c", Bill: "words=3"}}}
	edit := func(f func(*goldenRecord)) goldenRecord {
		r := base
		r.Lines = append([]goldenLine(nil), base.Lines...)
		r.Block = append([]goldenLine(nil), base.Block...)
		f(&r)
		return r
	}
	for _, tc := range []struct {
		name string
		got  goldenRecord
		want string // a substring of the report; "" for no difference
	}{
		{"equal", base, ""},
		{"token", edit(func(r *goldenRecord) { r.Lines[0].Text = "a x c" }), `Privatize, line 1 "I'm sure you don't want what the people said, and we can't say it won't work.": token 2 is "x", want "b"`},
		{"block token", edit(func(r *goldenRecord) { r.Block[0].Text = "a b d" }), `PrivatizeBlock, line 1`},
		{"spacing", edit(func(r *goldenRecord) { r.Lines[0].Text = "a  b c" }), "the spacing differs"},
		{"token count", edit(func(r *goldenRecord) { r.Lines[0].Text = "a b" }), "2 tokens, want 3"},
		{"bill", edit(func(r *goldenRecord) { r.Lines[0].Bill = "words=2" }), `bill "words=2", want "words=3"`},
		{"epsilon", edit(func(r *goldenRecord) { r.Epsilon = "0.6" }), "ε 0.6, want 0.5"},
		{"seed", edit(func(r *goldenRecord) { r.Seed = 2 }), "seed 2, want 1"},
		{"missing", edit(func(r *goldenRecord) { r.Case = "brr/y" }), "case brr/y: not in the file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, first := diffGolden([]goldenRecord{tc.got}, []goldenRecord{base})
			if tc.want == "" {
				if n != 0 {
					t.Fatalf("%d differences, first %q; want none", n, first)
				}
				return
			}
			if n == 0 || !strings.Contains(first, tc.want) {
				t.Fatalf("%d differences, first %q; want one containing %q", n, first, tc.want)
			}
		})
	}
}
