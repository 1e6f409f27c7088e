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
	"unicode/utf8"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/ledger"
	"github.com/wordveil/wordveil/mechanism"
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

// onlyOutsideVocabularyAlphabet reports whether s holds a character no
// vocabulary word (written in any capitalization class) or the placeholder
// can contain: such a token can never appear in an output by coincidence.
func onlyOutsideVocabularyAlphabet(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '\'' || r == '-')
	}) >= 0
}

// checkPrivatized verifies the text guarantee on one call, token by token.
func checkPrivatized(t *testing.T, p *Privatizer, text string, src rand.Source) {
	t.Helper()
	var outs []string
	var oovTokens []string
	results, err := p.block(context.Background(), []string{text}, src, nil, func(in tokenize.Token, out string, how tokenSource) {
		outs = append(outs, out)
		inVocab := func(w string) bool { _, ok := p.asset.Lookup(tokenize.Key(w)); return ok }
		switch how {
		case fromLayout:
			if in.Kind.Content() || out != in.Text {
				t.Fatalf("content token %q (%v) passed through as layout", in.Text, in.Kind)
			}
		case fromMechanism:
			if in.Kind != tokenize.Word || !inVocab(in.Text) || !inVocab(out) {
				t.Fatalf("mechanism output %q for %q: not a vocabulary word", out, in.Text)
			}
		case fromOOV:
			if !in.Kind.Content() {
				t.Fatalf("layout token %q went to the OOV policy", in.Text)
			}
			if out == in.Text || (out != p.opt.Placeholder && !inVocab(out)) {
				t.Fatalf("OOV token %q replaced by %q", in.Text, out)
			}
			oovTokens = append(oovTokens, in.Text)
		case fromPunct:
			if in.Kind != tokenize.Punct {
				t.Fatalf("non-punctuation %q privatized as punctuation", in.Text)
			}
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
	// Invalid bytes are content (OOV) and every replacement is valid text,
	// so the output is always valid UTF-8; within valid UTF-8 a substring
	// match is rune-aligned, so the check below is exact.
	if !utf8.ValidString(res.Text) {
		t.Fatalf("output %q is not valid UTF-8", res.Text)
	}
	for _, tok := range oovTokens {
		if utf8.ValidString(tok) && onlyOutsideVocabularyAlphabet(tok) && strings.Contains(res.Text, tok) {
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
}

func TestTextGuarantee(t *testing.T) {
	src := mechanism.NewSeededSourceForEvaluation(stattest.Seed("text"))
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
}

// FuzzTextPrivatizer: for arbitrary input, every content token is replaced
// by a vocabulary word or the placeholder, layout is kept, and no
// out-of-vocabulary token appears in the output.
func FuzzTextPrivatizer(f *testing.F) {
	for _, s := range textSeeds {
		f.Add(s, false)
	}
	f.Add("", true)
	a := defaultAsset(f)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.6)
	ps := map[bool]*Privatizer{}
	ps[false], _ = New(dg, a, Options{})
	ps[true], _ = New(dg, a, Options{OOV: OOVPlaceholder, PrivatizePunctuation: true})
	src := mechanism.NewSeededSourceForEvaluation(stattest.Seed("fuzz-text"))
	f.Fuzz(func(t *testing.T, s string, placeholder bool) {
		checkPrivatized(t, ps[placeholder], s, src)
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
	src := mechanism.NewSeededSourceForEvaluation(stattest.Seed("roundtrip"))
	for _, tc := range []struct{ in, want string }{
		{"The cat sat on the mat.", "The cat sat on the mat."},
		{"PRIVACY matters,  Privacy\tmatters\nprivacy matters!", "PRIVACY matters,  Privacy\tmatters\nprivacy matters!"},
		{"Stop: well-known (rules)...", "Stop: well-known (rules)..."},
		// The default vocabulary has no contractions (GloVe splits them), so
		// they are out of vocabulary: replaced, never passed through.
		{"Don't stop", "• stop"},
		{"iPhone users", "iphone users"}, // Mixed case is restored as lower
		{"call 911 or Xqzzv", "call • or •"},
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
	res, err := p.Privatize("the quick brown fox, 42 Xqzzv!", mechanism.NewSeededSourceForEvaluation(stattest.Seed("acc")))
	if err != nil {
		t.Fatal(err)
	}
	acc := res.Accounting
	if acc.Words != 4 || acc.OOV != 2 || acc.Epsilon != 0.7 || acc.TotalEpsilon != 4*0.7 || acc.Metric != "hamming" {
		t.Fatalf("accounting %+v", acc)
	}
	if acc.PAvg < 100 || acc.PAvg > 140 || acc.UnitFree != acc.TotalEpsilon*acc.PAvg {
		t.Fatalf("P_avg %v, unit-free %v", acc.PAvg, acc.UnitFree)
	}
}

func TestTextErrors(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 1)
	src := mechanism.NewSeededSourceForEvaluation(stattest.Seed("errs"))
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
	small := &wva.Asset{Words: []string{"a"}}
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
			src := mechanism.NewSeededSourceForEvaluation(stattest.Seed(fmt.Sprint("budget", g)))
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
		w := a.Words[r.IntN(5000)]
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
				src := mechanism.NewSeededSourceForEvaluation(stattest.Seed("bench-text"))
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
