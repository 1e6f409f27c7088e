package privatize

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/internal/wva"
)

// TestClassOf: the class of a token, for each combination of conditions,
// with the smallest-ε rule and its tie order.
func TestClassOf(t *testing.T) {
	// default 1, number 0.7, rare 0.3, capitalized 0.5; rare from id 100.
	all := &classSet{names: []string{ClassDefault, ClassNumber, ClassRare, ClassCapitalized},
		eps: []float64{1, 0.7, 0.3, 0.5}, rareRank: 100, number: 1, rare: 2, capital: 3}
	// capitalized below rare; number and rare tie.
	capFirst := &classSet{names: []string{ClassDefault, ClassNumber, ClassRare, ClassCapitalized},
		eps: []float64{1, 0.4, 0.4, 0.2}, rareRank: 100, number: 1, rare: 2, capital: 3}
	// only capitalized configured, above the base ε.
	onlyCap := &classSet{names: []string{ClassDefault, ClassCapitalized},
		eps: []float64{1, 2}, number: -1, rare: -1, capital: 1}
	word := tokenize.Token{Kind: tokenize.Word}
	num := tokenize.Token{Kind: tokenize.Number}
	for _, tc := range []struct {
		name string
		cs   *classSet
		tk   tokenize.Token
		id   int
		c    tokenize.Case
		want string
	}{
		{"common lower word", all, word, 5, tokenize.Lower, ClassDefault},
		{"mixed case is written as lower", all, word, 5, tokenize.Mixed, ClassDefault},
		{"common Title word", all, word, 5, tokenize.Title, ClassCapitalized},
		{"common UPPER word", all, word, 5, tokenize.Upper, ClassCapitalized},
		{"rare lower word", all, word, 100, tokenize.Lower, ClassRare},
		{"id just below the rank", all, word, 99, tokenize.Lower, ClassDefault},
		{"rare Title word: rare has the smaller ε", all, word, 500, tokenize.Title, ClassRare},
		{"common number", all, num, 5, tokenize.Lower, ClassNumber},
		{"rare number: rare has the smaller ε", all, num, 500, tokenize.Lower, ClassRare},
		{"rare Title word: capitalized has the smaller ε", capFirst, word, 500, tokenize.Title, ClassCapitalized},
		{"rare number: tie goes to number", capFirst, num, 500, tokenize.Lower, ClassNumber},
		{"unconfigured rare and number", onlyCap, num, 500, tokenize.Lower, ClassDefault},
		{"a configured class above base still applies", onlyCap, word, 5, tokenize.Upper, ClassCapitalized},
	} {
		if got := tc.cs.names[tc.cs.classOf(tc.tk, tc.id, tc.c)]; got != tc.want {
			t.Errorf("%s: class %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestNewWithClassesRefuses: every bad setting is an error naming what is
// wrong, never a silently ignored class.
func TestNewWithClassesRefuses(t *testing.T) {
	a := defaultAsset(t)
	n := a.Len()
	mm, err := memo.Open(t.TempDir(), memo.Identity{Mechanism: "x", Asset: a.SHA256()}, testSecret)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		c    Classes
		opt  Options
		want error
	}{
		{"negative rank", Classes{RareRank: -1, Rare: 0.5}, Options{}, ErrInvalid},
		{"rank = N", Classes{RareRank: n, Rare: 0.5}, Options{}, ErrInvalid},
		{"rare ε without rank", Classes{Rare: 0.5}, Options{}, ErrInvalid},
		{"rank without rare ε", Classes{RareRank: 10}, Options{}, ErrInvalid},
		{"negative ε", Classes{Capitalized: -1}, Options{}, mechanism.ErrInvalidEpsilon},
		{"NaN ε", Classes{Number: math.NaN()}, Options{}, mechanism.ErrInvalidEpsilon},
		{"infinite ε", Classes{RareRank: 10, Rare: math.Inf(1)}, Options{}, mechanism.ErrInvalidEpsilon},
		{"saturated ε", Classes{Capitalized: 50}, Options{}, mechanism.ErrEpsilonSaturated},
		{"memo with another ε", Classes{Capitalized: 0.5}, Options{Memo: mm}, ErrMemoMismatch},
	} {
		_, err := NewWithClasses(base1DG(t, a, 1), a, tc.c, mechanism.Options{}, tc.opt)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := NewWithClasses(base1DG(t, a, 1), nil, Classes{}, mechanism.Options{}, Options{}); err == nil {
		t.Error("nil asset accepted")
	}
	// Negative control: a valid configuration is accepted.
	if _, err := NewWithClasses(base1DG(t, a, 1), a, Classes{RareRank: n - 1, Rare: 0.5, Capitalized: 0.5, Number: 2}, mechanism.Options{}, Options{}); err != nil {
		t.Errorf("valid classes refused: %v", err)
	}
}

// refClass is the test's own classification: the matching configured
// class of smallest ε, ties in the order number, rare, capitalized.
func refClass(a *wva.Asset, c Classes, base float64, in tokenize.Token) (string, float64) {
	id, ok := a.Lookup(tokenize.Key(in.Text))
	if w, st := a.StandIn(tokenize.Key(in.Text)); !ok && st && in.Kind == tokenize.Word {
		id = w // a stand-in has its word's rank
	}
	cs := tokenize.CaseOf(in.Whole) // a hyphenated word's segment is its own Whole
	name, eps := ClassDefault, base
	for _, k := range []struct {
		name  string
		eps   float64
		match bool
	}{
		{ClassNumber, c.Number, in.Kind == tokenize.Number},
		{ClassRare, c.Rare, c.RareRank > 0 && id >= c.RareRank},
		{ClassCapitalized, c.Capitalized, cs == tokenize.Title || cs == tokenize.Upper},
	} {
		if k.eps > 0 && k.match && (name == ClassDefault || k.eps < eps) {
			name, eps = k.name, k.eps
		}
	}
	return name, eps
}

// TestClassAccountingExact: TotalEpsilon, the per-class counts and the
// ledger charge equal what the test computes itself, word by word, from
// the tokens that reached the mechanism.
func TestClassAccountingExact(t *testing.T) {
	a := defaultAsset(t)
	n := a.Len()
	rank := n / 2
	rare := a.Word(n - 20)
	if id, ok := a.Lookup(rare); !ok || id < rank {
		t.Fatalf("rare word %q not found at a rare rank", rare)
	}
	text := "The cat sat with Smith in 1990. NASA said 5 " + rare + " words, don't Don't " +
		tokenize.Apply(tokenize.Title, rare) + " and the end, well-Known New-York Heisenberg"
	const base = 1.0
	for _, c := range []Classes{
		{RareRank: rank, Rare: 0.3, Capitalized: 0.5, Number: 0.7},
		{RareRank: rank, Rare: 0.4, Capitalized: 0.2, Number: 0.4},
		{Capitalized: 2},
	} {
		l, err := ledger.Open(t.TempDir(), ledger.Caps{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewWithClasses(base1DG(t, a, base), a, c, mechanism.Options{}, Options{Ledger: l})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{}
		wantEps := map[string]float64{ClassDefault: base}
		res, err := p.block(context.Background(), []string{text}, mechanism.NewSecureSource(), nil,
			func(in tokenize.Token, out string, how tokenSource) {
				if how == fromMechanism {
					name, eps := refClass(a, c, base, in)
					want[name]++
					wantEps[name] = eps
				}
			})
		if err != nil {
			t.Fatal(err)
		}
		acc := res[0].Accounting
		sum, words := 0.0, 0
		for _, name := range []string{ClassDefault, ClassNumber, ClassRare, ClassCapitalized} {
			sum += float64(want[name]) * wantEps[name]
			words += want[name]
		}
		got := map[string]int{}
		for _, cc := range acc.Classes {
			got[cc.Class] = cc.Words
			if cc.Words > 0 && cc.Epsilon != wantEps[cc.Class] {
				t.Errorf("%+v: class %s at ε %v, want %v", c, cc.Class, cc.Epsilon, wantEps[cc.Class])
			}
		}
		for name, k := range want {
			if got[name] != k {
				t.Errorf("%+v: class %s has %d words, want %d (%+v)", c, name, got[name], k, acc.Classes)
			}
		}
		if acc.Words != words || acc.TotalEpsilon != sum {
			t.Errorf("%+v: Words %d TotalEpsilon %v, want %d and %v", c, acc.Words, acc.TotalEpsilon, words, sum)
		}
		if math.Abs(acc.UnitFree-sum*acc.PAvg) > 1e-9*sum*acc.PAvg || math.Abs(acc.Ledger.Amount-acc.UnitFree) > 1e-9*acc.UnitFree {
			t.Errorf("%+v: UnitFree %v, ledger %v, want %v", c, acc.UnitFree, acc.Ledger.Amount, sum*acc.PAvg)
		}
		// Negative control: the base-ε bill of the same words differs, so
		// the comparison above can fail.
		if float64(words)*base == sum {
			t.Errorf("%+v: the text does not exercise the classes", c)
		}
	}
}

// TestNoClassesNoCounts: New keeps Accounting.Classes nil.
func TestNoClassesNoCounts(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.5)
	p, err := New(dg, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Privatize("The cat sat", mechanism.NewSecureSource())
	if err != nil || r.Accounting.Classes != nil || r.Accounting.TotalEpsilon != 1.5 {
		t.Fatalf("accounting %+v, %v", r, err)
	}
}

// TestClassesWithMemoAtBaseEpsilon: classes all at the base ε share the
// memo's mechanism, so the memo is allowed, and memoized words cost
// nothing in their class.
func TestClassesWithMemoAtBaseEpsilon(t *testing.T) {
	a := defaultAsset(t)
	dg, err := mechanism.New(mechanism.Name1DG, a, 0.5, mechanism.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mm, err := memo.Open(t.TempDir(), MemoIdentity(dg, a), testSecret)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewWithClasses(base1DG(t, a, 0.5), a, Classes{Capitalized: 0.5}, mechanism.Options{}, Options{Memo: mm})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Privatize("Cat cat Cat", mechanism.NewSecureSource())
	if err != nil {
		t.Fatal(err)
	}
	acc := r.Accounting
	if len(acc.Classes) != 2 || acc.Classes[1].Words != 2 || acc.Classes[1].Memoized != 1 || acc.Memoized != 2 || acc.TotalEpsilon != 0.5 {
		t.Fatalf("accounting %+v", acc)
	}
}

// TestRareClassEpsilonMeasured: a rare word is privatized at the rare
// class's ε. With 1-DG and no output restriction, Pr[output = input] for a
// word at an interior position of every list is (1−r)/(1+r), r = e^−ε.
// The measured frequency must match it at ε_rare and, as a negative
// control, must not match it at the base ε; a common word must match the
// base ε. Draws come from a seeded source: a failure reproduces.
func TestRareClassEpsilonMeasured(t *testing.T) {
	a := defaultAsset(t)
	n := a.Len()
	const base, rareEps, draws = 2.0, 0.5, 4000
	interior := func(id int) bool {
		for _, l := range a.Lists {
			if p := l.Pos[id]; p == 0 || int(p) == n-1 {
				return false
			}
		}
		return true
	}
	plain := func(id int) bool {
		w := a.Word(id)
		toks := tokenize.Tokenize(w)
		return len(toks) == 1 && toks[0].Kind == tokenize.Word && toks[0].Part == tokenize.Single &&
			tokenize.CaseOf(w) == tokenize.Lower && interior(id)
	}
	pick := func(from int) int {
		for id := from; id < n; id++ {
			if plain(id) {
				return id
			}
		}
		t.Fatalf("no plain word from id %d", from)
		return -1
	}
	rank := n / 2
	rare, common := pick(n-2000), pick(100)
	p, err := NewWithClasses(base1DG(t, a, base), a, Classes{RareRank: rank, Rare: rareEps}, mechanism.Options{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	stay := func(eps float64) float64 { r := math.Exp(-eps); return (1 - r) / (1 + r) }
	measure := func(id int) float64 {
		texts := make([]string, draws)
		for i := range texts {
			texts[i] = a.Word(id)
		}
		same := 0
		// Seeded, so that a failure reproduces (a 5σ band still fails a
		// correct sampler about once in 1.7 million runs).
		src := seeded.Key(stattest.Seed("classes-rare/" + a.Word(id)))
		_, err := p.block(context.Background(), texts, src, nil,
			func(_ tokenize.Token, out string, how tokenSource) {
				if how == fromMechanism && out == a.Word(id) {
					same++
				}
			})
		if err != nil {
			t.Fatal(err)
		}
		return float64(same) / draws
	}
	within := func(got, p float64) bool { return math.Abs(got-p) <= 5*math.Sqrt(p*(1-p)/draws) }
	if got := measure(rare); !within(got, stay(rareEps)) || within(got, stay(base)) {
		t.Errorf("rare word %q: N_w %.4f, want %.4f (ε %v), not %.4f (ε %v)", a.Word(rare), got, stay(rareEps), rareEps, stay(base), base)
	} else {
		t.Logf("rare word %q: N_w %.4f, closed form %.4f at ε_rare, %.4f at base", a.Word(rare), got, stay(rareEps), stay(base))
	}
	if got := measure(common); !within(got, stay(base)) || within(got, stay(rareEps)) {
		t.Errorf("common word %q: N_w %.4f, want %.4f (base ε), not %.4f", a.Word(common), got, stay(base), stay(rareEps))
	} else {
		t.Logf("common word %q: N_w %.4f, closed form %.4f at base", a.Word(common), got, stay(base))
	}
}

// BenchmarkClasses: the per-word cost of classes (one class lookup per
// word, the same draws) against the same text without them.
func BenchmarkClasses(b *testing.B) {
	a := defaultAsset(b)
	text := "The cat sat with Smith in 1990 and NASA said 5 words, don't you think? "
	for _, bc := range []struct {
		name string
		c    Classes
	}{
		{"none", Classes{}},
		{"rare+capitalized+number", Classes{RareRank: a.Len() / 2, Rare: 0.3, Capitalized: 0.5, Number: 0.7}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, err := NewWithClasses(base1DG(b, a, 1), a, bc.c, mechanism.Options{}, Options{})
			if err != nil {
				b.Fatal(err)
			}
			src := mechanism.NewSecureSource()
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := p.Privatize(text, src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// base1DG is 1-DG over a at ε eps, the default class's mechanism.
func base1DG(tb testing.TB, a *wva.Asset, eps float64) mechanism.Mechanism {
	tb.Helper()
	m, err := mechanism.New(mechanism.Name1DG, a, eps, mechanism.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}
