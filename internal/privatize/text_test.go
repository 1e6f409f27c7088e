package privatize

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/internal/wva"
)

// textMechanisms builds one privatizer per on-device mechanism at its
// balanced preset over the default asset.
func textMechanisms(t testing.TB, opt Options) map[string]*Privatizer {
	t.Helper()
	a := defaultAsset(t)
	out := map[string]*Privatizer{}
	for _, nm := range fullAssetMechanisms(t) {
		p, err := New(nm.m, a, opt)
		if err != nil {
			t.Fatal(err)
		}
		out[nm.name] = p
	}
	return out
}

// alphabets caches, per privatizer, the characters its outputs can be made
// of: those of its vocabulary words in every capitalization class, of its
// placeholder, and the curly apostrophe of clitics typed with one.
var alphabets sync.Map // *Privatizer → map[rune]bool

// outsideOutputAlphabet reports whether s holds a character that neither
// a replacement of p nor layout (whitespace, punctuation, ASCII symbols)
// can contain: such a token can never appear in an output by coincidence.
func outsideOutputAlphabet(p *Privatizer, s string) bool {
	v, ok := alphabets.Load(p)
	if !ok {
		al := map[rune]bool{'’': true}
		for _, w := range p.asset.WordList() {
			for _, c := range []tokenize.Case{tokenize.Lower, tokenize.Title, tokenize.Upper} {
				for _, r := range tokenize.Apply(c, w) {
					al[r] = true
				}
			}
		}
		for _, r := range p.opt.Placeholder {
			al[r] = true
		}
		v, _ = alphabets.LoadOrStore(p, al)
	}
	al := v.(map[rune]bool)
	return strings.IndexFunc(s, func(r rune) bool {
		layout := unicode.IsSpace(r) || unicode.IsPunct(r) || r < utf8.RuneSelf && unicode.IsSymbol(r)
		return !al[r] && !layout
	}) >= 0
}

// checkToken checks one token's output: layout is kept exactly; every
// vocabulary word or number goes to the mechanism and comes back a
// vocabulary word (an allowed one when the mechanism restricts its
// outputs), as does a word the asset has a stand-in for; a hyphenated
// word arrives segment by segment; every other content token goes to the OOV policy and comes
// back an allowed vocabulary word or the placeholder, never itself; a
// clitic's output is glued to its host exactly when it is a clitic itself,
// and keeps a curly apostrophe.
func checkToken(p *Privatizer, in tokenize.Token, out string, how tokenSource) error {
	inVocab := func(w string) bool { _, ok := p.asset.Lookup(tokenize.Key(w)); return ok }
	allowed := func(w string) bool {
		id, ok := p.asset.Lookup(tokenize.Key(w))
		return ok && (p.outputs == nil || p.outputs.Allowed(id))
	}
	standIn := func(w string) bool { _, ok := p.asset.StandIn(tokenize.Key(w)); return ok }
	mechanismToken := in.Kind == tokenize.Word && (inVocab(in.Text) || standIn(in.Text)) ||
		in.Kind == tokenize.Number && p.opt.Numbers != NumbersReplace && inVocab(in.Text)
	if in.Kind == tokenize.Word && strings.Contains(in.Text, "-") {
		return fmt.Errorf("hyphenated word %q reached the privatizer whole: it goes segment by segment", in.Text)
	}
	word := out // the replacement, less the space before a clitic's
	if in.Part == tokenize.Clitic && (how == fromMechanism || how == fromOOV) {
		word = strings.TrimPrefix(out, " ")
		glued := strings.HasPrefix(tokenize.Key(word), "'") || tokenize.Key(word) == "n't"
		if glued == (word != out) {
			return fmt.Errorf("clitic %q of %q written %q: glued must mean a clitic output", in.Text, in.Whole, out)
		}
		if strings.Contains(in.Text, "’") && word != p.opt.Placeholder && strings.Contains(word, "'") {
			return fmt.Errorf("clitic %q written %q: the curly apostrophe was lost", in.Text, out)
		}
	}
	switch how {
	case fromLayout:
		if in.Kind.Content() || out != in.Text {
			return fmt.Errorf("content token %q (%v) passed through as layout", in.Text, in.Kind)
		}
	case fromMechanism:
		if !mechanismToken || !allowed(word) {
			return fmt.Errorf("mechanism output %q for %q (%v): not an allowed vocabulary word", out, in.Text, in.Kind)
		}
	case fromOOV:
		if !in.Kind.Content() {
			return fmt.Errorf("layout token %q went to the OOV policy", in.Text)
		}
		if mechanismToken {
			return fmt.Errorf("vocabulary token %q (%v) went to the OOV policy", in.Text, in.Kind)
		}
		// A replaced vocabulary number may draw itself by chance; any
		// other token cannot, since its output is a vocabulary word.
		if word == in.Text && !inVocab(in.Text) || (word != p.opt.Placeholder && !allowed(word)) {
			return fmt.Errorf("OOV token %q replaced by %q", in.Text, out)
		}
	case fromPunct:
		if in.Kind != tokenize.Punct {
			return fmt.Errorf("non-punctuation %q privatized as punctuation", in.Text)
		}
	}
	return nil
}

// checkPrivatized verifies the text guarantee on one call, token by token
// (each piece of a word cut into pieces is a token, see checkToken), then
// as a whole: the output is its tokens' outputs, the accounting counts the
// tokens, and no token the vocabulary lacks appears anywhere in the output.
func checkPrivatized(t *testing.T, p *Privatizer, text string, src rand.Source) {
	t.Helper()
	var outs []string
	var oovTokens []string
	words, oov := 0, 0
	results, err := p.block(context.Background(), []string{text}, src, nil, func(in tokenize.Token, out string, how tokenSource) {
		outs = append(outs, out)
		if err := checkToken(p, in, out, how); err != nil {
			t.Fatal(err)
		}
		switch how {
		case fromMechanism:
			words++
		case fromOOV:
			oov++
			oovTokens = append(oovTokens, in.Text)
		}
	})
	if err != nil {
		if text == "" && errors.Is(err, ErrEmptyText) {
			return
		}
		t.Fatal(err)
	}
	res := results[0]
	if got := strings.Join(outs, ""); got != res.Text {
		t.Fatalf("output %q is not the concatenation of its tokens %q", res.Text, got)
	}
	if res.Accounting.Words != words || res.Accounting.OOV != oov {
		t.Fatalf("accounting says %d words and %d OOV, the tokens %d and %d", res.Accounting.Words, res.Accounting.OOV, words, oov)
	}
	// Invalid bytes are content (OOV) and every replacement is valid text,
	// so the output is always valid UTF-8; within valid UTF-8 a substring
	// match is rune-aligned, so the check below is exact.
	if !utf8.ValidString(res.Text) {
		t.Fatalf("output %q is not valid UTF-8", res.Text)
	}
	for _, tok := range oovTokens {
		if utf8.ValidString(tok) && outsideOutputAlphabet(p, tok) && strings.Contains(res.Text, tok) {
			t.Fatalf("out-of-vocabulary token %q appears in the output %q", tok, res.Text)
		}
	}
}

var textSeeds = []string{
	"Hello, World! Meet John Kowalski at 10:30 on 2024-05-01.",
	"mail me: jan.nowak+test@example.co.uk or call +48 601 234 567",
	"see https://example.com/a?b=c&d=1 and www.wordveil.dev/docs.",
	"Zürich café naïve façade — São Paulo 東京 🙂👍",
	"I DON'T know... it's well-known; covid19 3rd 1,000.50 $5",
	"\t  multiple   spaces\nand\r\nnewlines  ",
	"x\xff\xfe invalid utf8 \xc3",
	"I'm sure John’s 5 cats don't know 1990, 3.5 or 1,000; I’M SURE we'll; Can't WON’T shan't.",
	"y'all'd've wouldn't've rock'n'roll o'clock '' 's n't 5's 1990s 10am 2nd 7 1,234 ٣ 42.",
	"DON'T DoN't don’T N'T 'S it''s its' well-known's x-n't",
	"Heisenberg's kitten-doggo, y'know; NOPE-nope mother-in-law's Cat-DOG-xqz",
}

func TestTextGuarantee(t *testing.T) {
	src := seeded.Key(stattest.Seed("text"))
	for _, oov := range []string{OOVRandomWord, OOVPlaceholder} {
		for _, punct := range []bool{false, true} {
			for name, p := range textMechanisms(t, Options{OOV: oov, PrivatizePunctuation: punct}) {
				t.Run(fmt.Sprintf("%s/%s/punct=%v", name, oov, punct), func(t *testing.T) {
					for _, s := range textSeeds {
						checkPrivatized(t, p, s, src)
					}
				})
			}
		}
	}
	// Over a vocabulary with clitics and numbers, so that their pieces go
	// through the mechanism too, with either number policy, and with an
	// output vocabulary.
	a := syntheticAsset(t)
	for _, nm := range syntheticMechanisms(t, a) {
		for _, m := range []mechanism.Mechanism{nm.m, restrict(t, nm.m, a, "the", "never", "'s", "n't", "5", "cat")} {
			for _, opt := range []Options{{}, {Numbers: NumbersReplace}, {OOV: OOVPlaceholder, PrivatizePunctuation: true}} {
				p, err := New(m, a, opt)
				if err != nil {
					t.Fatal(err)
				}
				t.Run(fmt.Sprintf("%s/outputs=%v/%+v", nm.name, p.outputs != nil, opt), func(t *testing.T) {
					for range 20 {
						for _, s := range textSeeds {
							checkPrivatized(t, p, s, src)
						}
					}
				})
			}
		}
	}
}

// FuzzTextPrivatizer: for arbitrary input, every content token is replaced
// by a vocabulary word or the placeholder, layout is kept, and no
// out-of-vocabulary token appears in the output; over the default asset
// and over one with clitics and numbers, with each number policy.
func FuzzTextPrivatizer(f *testing.F) {
	for i, s := range textSeeds {
		f.Add(s, uint8(i))
	}
	f.Add("", uint8(1))
	a := defaultAsset(f)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.6)
	sa := syntheticAsset(f)
	sdg, _ := mechanism.NewDiffractorGeometric(sa.Lists, 0.3)
	var ps []*Privatizer
	for _, c := range []struct {
		m   mechanism.Mechanism
		a   *wva.Asset
		opt Options
	}{
		{dg, a, Options{}},
		{dg, a, Options{OOV: OOVPlaceholder, PrivatizePunctuation: true}},
		{sdg, sa, Options{}},
		{sdg, sa, Options{Numbers: NumbersReplace, OOV: OOVPlaceholder}},
		{restrict(f, sdg, sa, "never", "'s", "1990"), sa, Options{}},
	} {
		p, err := New(c.m, c.a, c.opt)
		if err != nil {
			f.Fatal(err)
		}
		ps = append(ps, p)
	}
	src := seeded.Key(stattest.Seed("fuzz-text"))
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		checkPrivatized(t, ps[int(which)%len(ps)], s, src)
	})
}

// TestLayoutAndCaseRoundTrip: with a mechanism that (almost surely) returns
// its input, in-vocabulary words come back exactly, capitalization class
// included, and the layout is byte for byte the input's.
func TestLayoutAndCaseRoundTrip(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 200) // Pr[G ≠ 0] ≈ 2e-87
	p, err := New(dg, a, Options{OOV: OOVPlaceholder})
	if err != nil {
		t.Fatal(err)
	}
	src := seeded.Key(stattest.Seed("roundtrip"))
	for _, tc := range []struct{ in, want string }{
		{"The cat sat on the mat.", "The cat sat on the mat."},
		{"PRIVACY matters,  Privacy\tmatters\nprivacy matters!", "PRIVACY matters,  Privacy\tmatters\nprivacy matters!"},
		{"Stop: well-known (rules)...", "Stop: well-known (rules)..."},
		// The default vocabulary has the clitic pieces: "Don't" is "Do" +
		// "n't", each privatized, rejoined as typed.
		{"Don't stop", "Don't stop"},
		{"I’m sure it's fine", "I’m sure it's fine"},
		{"iPhone users", "iphone users"}, // Mixed case is restored as lower
		{"call 9117 or Xqzzv", "call • or •"},
		{"  \n ", "  \n "},
	} {
		res, err := p.Privatize(tc.in, src)
		if err != nil {
			t.Fatal(err)
		}
		if res.Text != tc.want {
			t.Errorf("Privatize(%q) = %q, want %q", tc.in, res.Text, tc.want)
		}
	}
}

func TestAccounting(t *testing.T) {
	a := defaultAsset(t)
	x := fullAssetMechanisms(t)[0].m // BRR at ε = 0.7
	p, _ := New(x, a, Options{})
	res, err := p.Privatize("the quick brown fox, 4217 Xqzzv!", seeded.Key(stattest.Seed("acc")))
	if err != nil {
		t.Fatal(err)
	}
	acc := res.Accounting
	if acc.Words != 4 || acc.OOV != 2 || acc.Epsilon != 0.7 || acc.TotalEpsilon != 4*0.7 || acc.Metric != "hamming" {
		t.Fatalf("accounting %+v", acc)
	}
	if acc.PAvg < 100 || acc.PAvg > 140 || acc.UnitFree != acc.TotalEpsilon*acc.PAvg {
		t.Fatalf("P_avg %v, metric loss %v", acc.PAvg, acc.UnitFree)
	}
}

func TestTextErrors(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 1)
	src := seeded.Key(stattest.Seed("errs"))
	p, _ := New(dg, a, Options{MaxTextBytes: 10})
	if _, err := p.Privatize("", src); !errors.Is(err, ErrEmptyText) {
		t.Errorf("empty: %v", err)
	}
	if _, err := p.Privatize("eleven bytes", src); !errors.Is(err, ErrTextTooLarge) {
		t.Errorf("too large: %v", err)
	}
	if _, err := p.Privatize("ok", nil); !errors.Is(err, mechanism.ErrNilSource) {
		t.Errorf("nil source: %v", err)
	}
	if _, err := New(dg, a, Options{OOV: "keep"}); !errors.Is(err, ErrOOVPolicy) {
		t.Errorf("pass-through policy accepted: %v", err)
	}
	l, _ := ledger.Open(t.TempDir(), ledger.Caps{})
	tem, _ := mechanism.NewTEM(a.TEM, 10, mechanism.TEMOptions{})
	if _, err := New(tem, a, Options{Ledger: l}); !errors.Is(err, ErrNoUnitLoss) {
		t.Errorf("TEM lists with a ledger: %v", err)
	}
	small := (&wva.Asset{}).SetWords([]string{"a"})
	if _, err := New(dg, small, Options{}); err == nil {
		t.Error("mechanism and asset of different sizes accepted")
	}
}

// TestBudgetExhaustion: once the ledger's cap is reached the call fails and
// returns no text; concurrent callers never overspend.
func TestBudgetExhaustion(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.01)
	pavg, _ := mechanism.MeanDistance(dg)
	perWord := 0.01 * pavg
	l, _ := ledger.Open(t.TempDir(), ledger.Caps{Lifetime: 20 * perWord * 1.0000001, PerPeriod: 1e9, Period: time.Hour})
	p, err := New(dg, a, Options{Ledger: l})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	granted, refused := 0, 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			src := seeded.Key(stattest.Seed(fmt.Sprint("budget", g)))
			for i := 0; i < 5; i++ {
				res, err := p.Privatize("the cat", src) // two words
				mu.Lock()
				switch {
				case err == nil:
					granted++
				case errors.Is(err, ledger.ErrBudgetExceeded) && res == nil:
					refused++
				default:
					t.Errorf("unexpected: %v, %v", res, err)
				}
				mu.Unlock()
			}
		}(g)
	}
	wg.Wait()
	if granted != 10 || refused != 30 {
		t.Fatalf("granted %d, refused %d; want exactly 10 two-word calls under a 20-word budget", granted, refused)
	}
}

// BenchmarkText: words per second for a 10,000-word text per mechanism,
// without and with a ledger (its fsync'd charge per call).
func BenchmarkText(b *testing.B) {
	a := defaultAsset(b)
	r := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	for i := 0; i < 10000; i++ {
		w := a.Word(r.IntN(5000))
		switch r.IntN(20) {
		case 0:
			w = strings.ToUpper(w[:1]) + w[1:] + ","
		case 1:
			w = "Xqzzv" + fmt.Sprint(i) // out of vocabulary
		case 2:
			w += "."
		}
		sb.WriteString(w)
		sb.WriteByte(' ')
	}
	text := sb.String()
	l, _ := ledger.Open(b.TempDir(), ledger.Caps{})
	for _, withLedger := range []bool{false, true} {
		opt := Options{}
		if withLedger {
			opt.Ledger = l
		}
		for _, nm := range fullAssetMechanisms(b) {
			if _, known := mechanism.MeanDistance(nm.m); withLedger && !known {
				continue
			}
			p, err := New(nm.m, a, opt)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/ledger=%v", nm.name, withLedger), func(b *testing.B) {
				src := seeded.Key(stattest.Seed("bench-text"))
				for b.Loop() {
					if _, err := p.Privatize(text, src); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*10000)/b.Elapsed().Seconds(), "words/s")
			})
		}
	}
}
