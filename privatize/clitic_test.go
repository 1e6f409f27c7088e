package privatize

import (
	"errors"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/mechanism"
)

// nearIdentity returns 1-DG over the synthetic asset at ε = 200, where
// Pr[G ≠ 0] ≈ 2e-87: the output is the input.
func nearIdentity(t *testing.T) (mechanism.Mechanism, *Privatizer) {
	t.Helper()
	a := syntheticAsset(t)
	dg, err := mechanism.NewDiffractorGeometric(a.Lists, 200)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(dg, a, Options{OOV: OOVPlaceholder})
	if err != nil {
		t.Fatal(err)
	}
	return dg, p
}

func TestJoinClitic(t *testing.T) {
	for _, tc := range []struct {
		in, out string
		vocab   bool
		want    string
	}{
		{"n't", "n't", true, "n't"},
		{"'s", "'s", true, "'s"},
		{"'m", "'re", true, "'re"},
		{"N'T", "N'T", true, "N'T"},     // an UPPER word's clitic is written UPPER by the caller
		{"n’t", "n't", true, "n’t"},     // curly stays curly
		{"’S", "'RE", true, "’RE"},      // in any case
		{"'s", "never", true, " never"}, // not a clitic: a word of its own
		{"n’t", "o'clock", true, " o’clock"},
		{"'d", "•", false, " •"},  // the placeholder, after a space
		{"’d", "'x", false, "'x"}, // a placeholder that starts with an apostrophe is glued, and written as given
		{"'s", "N't", true, "N't"},
		{"'s", "nt", true, " nt"},
	} {
		if got := joinClitic(tc.in, tc.out, tc.vocab); got != tc.want {
			t.Errorf("joinClitic(%q, %q, %v) = %q, want %q", tc.in, tc.out, tc.vocab, got, tc.want)
		}
	}
}

// TestPieceCase: a word's pieces are written in the whole word's class
// (its clitics in UPPER or lower case), and the class of one word does not
// leak into the next.
func TestPieceCase(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []tokenize.Case // per content token
	}{
		{"I'm", []tokenize.Case{tokenize.Title, tokenize.Lower}},
		{"I'M", []tokenize.Case{tokenize.Upper, tokenize.Upper}},
		{"DON'T stop", []tokenize.Case{tokenize.Upper, tokenize.Upper, tokenize.Lower}},
		{"Don’t", []tokenize.Case{tokenize.Title, tokenize.Lower}},
		{"McDonald's", []tokenize.Case{tokenize.Mixed, tokenize.Lower}},
		{"wouldn't've", []tokenize.Case{tokenize.Lower, tokenize.Lower, tokenize.Lower}},
		{"WOULDN'T'VE Ok", []tokenize.Case{tokenize.Upper, tokenize.Upper, tokenize.Upper, tokenize.Title}},
	} {
		var got []tokenize.Case
		var word tokenize.Case
		for _, tk := range tokenize.Tokenize(tc.in) {
			if tk.Kind.Content() {
				got = append(got, pieceCase(tk, &word))
			}
		}
		if len(got) != len(tc.want) {
			t.Fatalf("%q: classes %v, want %v", tc.in, got, tc.want)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q: classes %v, want %v", tc.in, got, tc.want)
				break
			}
		}
	}
}

// TestCliticRoundTrip: with a mechanism that returns its input, words cut
// into pieces come back exactly as typed (case, apostrophe and all), every
// vocabulary number comes back, and what the vocabulary lacks is replaced.
func TestCliticRoundTrip(t *testing.T) {
	dg, p := nearIdentity(t)
	replace, err := New(dg, p.asset, Options{OOV: OOVPlaceholder, Numbers: NumbersReplace})
	if err != nil {
		t.Fatal(err)
	}
	src := mechanism.NewSeededSourceForEvaluation(stattest.Seed("clitic-roundtrip"))
	for _, tc := range []struct {
		p       *Privatizer
		in, out string
	}{
		{p, "I'm sure", "I'm sure"},
		{p, "I'M SURE", "I'M SURE"},
		{p, "DON'T know", "DON'T know"},
		{p, "Don’t know", "Don’t know"},
		{p, "I’M", "I’M"},
		{p, "Can't, WON’T, shan't!", "Can't, WON’T, shan't!"},
		{p, "you're we'll I've he'd they'd've", "you're we'll I've he'd they'd've"},
		{p, "John's 5 cats", "John's 5 cats"},
		{p, "it's 1990, 3.5 or 1,000.", "it's 1990, 3.5 • 1,000."}, // "or" is not in the vocabulary
		{p, "o'clock well-known's", "o'clock well-known's"},
		{p, "rock'n'roll y'all", "• •"}, // whole words the vocabulary lacks
		{p, "''", "''"},
		{p, "'s", "'s"},   // the apostrophe is layout, "s" a word
		{p, "n't", "n't"}, // a word of its own
		{p, "5's", "5's"}, // "5", layout "'", "s"
		{p, "1990s 10am 2nd 7 1,234", "• • • • •"},
		{p, "Mary's", "•'s"}, // a host the vocabulary lacks: replaced, its clitic kept as a clitic
		{replace, "John's 5 cats, 1990, 3.5", "John's • cats, •, •"},
	} {
		res, err := tc.p.Privatize(tc.in, src)
		if err != nil {
			t.Fatal(err)
		}
		if res.Text != tc.out {
			t.Errorf("Privatize(%q, numbers=%s) = %q, want %q", tc.in, tc.p.opt.Numbers, res.Text, tc.out)
		}
	}
}

// TestRejoinThroughOutputs: the rejoin rule end to end. The mechanism may
// release only the listed words, so every vocabulary piece and every OOV
// token becomes one of them: a clitic whose output is not a clitic
// becomes a word after a space; one whose output is a clitic is glued.
func TestRejoinThroughOutputs(t *testing.T) {
	dg, p := nearIdentity(t)
	src := mechanism.NewSeededSourceForEvaluation(stattest.Seed("rejoin"))
	for _, tc := range []struct {
		allowed string
		in, out string
	}{
		{"never", "Don't", "Never never"},
		{"never", "DON'T", "NEVER NEVER"},
		{"never", "I’M sure", "NEVER NEVER never"},
		{"never", "I'm", "Never never"},
		{"never", "wouldn't've", "never never never"},
		{"never", "rock'n'roll", "never"},
		{"never", "''", "''"},
		{"never", "'s", "'never"},
		{"never", "n't", "never"},
		{"never", "5's", "never'never"},
		{"never", "1990s", "never"},
		{"'s", "John’s", "'s’s"}, // a clitic output is glued, in the input's apostrophe
		{"n't", "DON’T", "N'TN’T"},
	} {
		r := restrict(t, dg, p.asset, tc.allowed)
		q, err := New(r, p.asset, Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := q.Privatize(tc.in, src)
		if err != nil {
			t.Fatal(err)
		}
		if res.Text != tc.out {
			t.Errorf("Privatize(%q) releasing only %q = %q, want %q", tc.in, tc.allowed, res.Text, tc.out)
		}
	}
}

// TestCliticAccounting: each piece counts, as a word when the mechanism
// privatized it and as OOV otherwise; so does each number.
func TestCliticAccounting(t *testing.T) {
	dg, p := nearIdentity(t)
	replace, _ := New(dg, p.asset, Options{Numbers: NumbersReplace})
	src := mechanism.NewSeededSourceForEvaluation(stattest.Seed("clitic-acc"))
	const text = "I don't know John's 5 cats, 7 dogs, Mary's 1990s."
	// Pieces in the vocabulary: I do n't know John 's 5 cats 's (9);
	// outside it: 7 dogs Mary 1990s (4).
	for _, tc := range []struct {
		p         *Privatizer
		words, oo int
	}{
		{p, 9, 4},
		{replace, 8, 5}, // "5" goes to the OOV policy too
	} {
		res, err := tc.p.Privatize(text, src)
		if err != nil {
			t.Fatal(err)
		}
		acc := res.Accounting
		if acc.Words != tc.words || acc.OOV != tc.oo || acc.TotalEpsilon != float64(tc.words)*200 {
			t.Errorf("numbers=%s: %d words, %d OOV, total ε %v; want %d, %d", tc.p.opt.Numbers, acc.Words, acc.OOV, acc.TotalEpsilon, tc.words, tc.oo)
		}
	}
}

// TestOOVDrawsFromOutputs: with an output vocabulary, the random-word
// policy draws uniformly from the allowed words only; the negative control
// (no output vocabulary) draws outside them.
func TestOOVDrawsFromOutputs(t *testing.T) {
	a := syntheticAsset(t)
	dg, err := mechanism.NewDiffractorGeometric(a.Lists, 0.3)
	if err != nil {
		t.Fatal(err)
	}
	allowed := []string{"the", "cat", "never", "'s"}
	text := strings.Repeat("xqzzv ", 4000) // 4000 OOV tokens
	src := mechanism.NewSeededSourceForEvaluation(stattest.Seed("oov-outputs"))
	count := func(m mechanism.Mechanism) map[string]int {
		p, err := New(m, a, Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Privatize(text, src)
		if err != nil {
			t.Fatal(err)
		}
		if res.Accounting.OOV != 4000 {
			t.Fatalf("%d OOV tokens, want 4000", res.Accounting.OOV)
		}
		seen := map[string]int{}
		for _, w := range strings.Fields(res.Text) {
			seen[w]++
		}
		return seen
	}
	seen := count(restrict(t, dg, a, allowed...))
	counts := make([]int, len(allowed))
	probs := make([]float64, len(allowed))
	total := 0
	for i, w := range allowed {
		counts[i], probs[i] = seen[w], 1/float64(len(allowed))
		total += seen[w]
	}
	if total != 4000 {
		t.Fatalf("OOV replacements outside the output vocabulary: %v", seen)
	}
	if _, _, pv := stattest.ChiSquare(counts, probs); pv < 1e-4 {
		t.Fatalf("OOV replacements not uniform over the allowed words: %v (p = %g)", counts, pv)
	}
	outside := 0
	for w, c := range count(dg) {
		if !strings.Contains(" the cat never 's ", " "+w+" ") {
			outside += c
		}
	}
	if outside == 0 {
		t.Fatal("negative control: without an output vocabulary every replacement was one of 4 words")
	}
}

// TestOptionsNumbersAndOutputs: an unknown number policy and an output
// vocabulary over another vocabulary size are refused.
func TestOptionsNumbersAndOutputs(t *testing.T) {
	dg, p := nearIdentity(t)
	if _, err := New(dg, p.asset, Options{Numbers: "keep"}); !errors.Is(err, ErrNumbers) {
		t.Errorf("numbers policy \"keep\" accepted: %v", err)
	}
	for _, ok := range []string{"", NumbersPrivatize, NumbersReplace} {
		if _, err := New(dg, p.asset, Options{Numbers: ok}); err != nil {
			t.Errorf("numbers policy %q: %v", ok, err)
		}
	}
	other, err := mechanism.NewOutputs(p.asset.Len()+1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(foreignOutputs{dg, other}, p.asset, Options{}); !errors.Is(err, mechanism.ErrOutputsMismatch) {
		t.Errorf("output vocabulary of %d words over an asset of %d accepted: %v", other.Vocabulary(), p.asset.Len(), err)
	}
}

// TestCheckTokenCatches is the negative control of checkToken, the
// per-token check of the guarantee tests: forged outputs that break the
// guarantee are reported, and the honest ones are not.
func TestCheckTokenCatches(t *testing.T) {
	dg, p := nearIdentity(t)
	rp, err := New(restrict(t, dg, p.asset, "never", "'s"), p.asset, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tok := func(s string, i int) tokenize.Token { return tokenize.Tokenize(s)[i] }
	for _, tc := range []struct {
		p    *Privatizer
		in   tokenize.Token
		out  string
		how  tokenSource
		fail bool
	}{
		{p, tok("Xqzzv", 0), "Xqzzv", fromOOV, true},     // passed through
		{p, tok("Xqzzv", 0), "•", fromOOV, false},        // replaced
		{p, tok("cat", 0), "cat", fromLayout, true},      // content as layout
		{p, tok("cat", 0), "dog", fromMechanism, false},  // privatized
		{p, tok("cat", 0), "dog", fromOOV, true},         // a vocabulary word sent to the OOV policy
		{p, tok("xqzzv", 0), "dog", fromMechanism, true}, // an OOV word sent to the mechanism
		{p, tok("5", 0), "cat", fromOOV, true},           // a vocabulary number sent to the OOV policy
		{p, tok("7", 0), "7", fromOOV, true},             // a number the vocabulary lacks, passed through
		{p, tok("don't", 1), " n't", fromMechanism, true},
		{p, tok("don't", 1), "n't", fromMechanism, false},
		{p, tok("he's", 1), "never", fromMechanism, true}, // a word glued to a host
		{p, tok("he's", 1), " never", fromMechanism, false},
		{p, tok("he’s", 1), "'s", fromMechanism, true}, // the curly apostrophe lost
		{p, tok("he’s", 1), "’s", fromMechanism, false},
		{rp, tok("cat", 0), "dog", fromMechanism, true}, // outside the output vocabulary
		{rp, tok("Xqzzv", 0), "cat", fromOOV, true},
		{rp, tok("Xqzzv", 0), "Never", fromOOV, false},
	} {
		err := checkToken(tc.p, tc.in, tc.out, tc.how)
		if (err != nil) != tc.fail {
			t.Errorf("checkToken(%q → %q, how %d) = %v, want failure %v", tc.in.Text, tc.out, tc.how, err, tc.fail)
		}
	}
}
