package privatize

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/internal/wva"
)

// Word classes: each vocabulary word or number a text holds falls in one,
// and is privatized by the class's mechanism at the class's ε
// (NewWithClasses). The class is a function of the vocabulary id the
// token is privatized as, its kind and its word's capitalization class
// only:
//
//   - number: a Number token ("5", "1990") the mechanism privatizes;
//   - rare: a token privatized as a vocabulary id ≥ Classes.RareRank (the
//     asset's ids are in frequency-rank order, so these are the rarer
//     words). A stand-in (Asset.StandIn) is privatized as the word it
//     stands in for and takes that word's id here too, so it is rare
//     exactly when its word is: the two stay at distance 0, same class,
//     same law ("yeahs" and "yeah" alike);
//   - capitalized: a word whose capitalization class is Title or UPPER
//     ("Smith", "NASA"), a proxy for names; a clitic piece belongs to its
//     word ("Don't" → "Do" and "n't" are both capitalized). For a
//     stand-in it is the stand-in's own case class, as for any token: the
//     case class is disclosed by the output anyway ("Yeahs" and "Yeah"
//     are both Title, "yeahs" and "Yeah" differ in case, visibly);
//   - default: every other token, at the base ε.
//
// A token that meets several conditions goes to the matching class with
// the smallest ε (ties: number, then rare, then capitalized), so adding a
// class never raises a word's ε above what another matching class gives
// it. A class left at 0 is not configured and matches nothing.
const (
	ClassDefault     = "default"
	ClassNumber      = "number"
	ClassRare        = "rare"
	ClassCapitalized = "capitalized"
)

// Classes gives word classes their own ε, in the mechanism's metric; 0
// leaves a class unconfigured (its words go to another matching class, or
// to the default class at the base ε).
type Classes struct {
	// RareRank: a token whose vocabulary id is ≥ RareRank is rare. Required
	// (in [1, N−1] for N vocabulary words) when Rare is set, and must be 0
	// when it is not: a rank nobody uses is refused, not ignored.
	RareRank int
	// Rare is the ε of rare words.
	Rare float64
	// Capitalized is the ε of Title and UPPER case words.
	Capitalized float64
	// Number is the ε of numbers (with NumbersPrivatize).
	Number float64
}

// ClassCount is one word class's share of a text's bill.
type ClassCount struct {
	// Class is ClassDefault, ClassNumber, ClassRare or ClassCapitalized.
	Class string
	// Epsilon is the class's per-word ε.
	Epsilon float64
	// Words is how many of the text's privatized words fell in the class.
	Words int
	// Memoized is how many of Words were answered from the memo.
	Memoized int
}

// CheckMemo refuses (ErrMemoMismatch) a configured class whose ε is not
// base: a memo holds one response per word, at one ε, and cannot serve it.
// NewWithClasses checks it; a caller checks it first to refuse before it
// opens (or creates) a memo.
func (c Classes) CheckMemo(base float64) error {
	for _, cl := range []struct {
		name string
		eps  float64
	}{{ClassNumber, c.Number}, {ClassRare, c.Rare}, {ClassCapitalized, c.Capitalized}} {
		if cl.eps != 0 && cl.eps != base {
			return errwrap.Tag(ErrMemoMismatch, "privatize: class %s at ε %v cannot share the memo of ε %v (one response per word)", cl.name, cl.eps, base)
		}
	}
	return nil
}

// classSet is a privatizer's configured classes. Index 0 is the default
// class; the others follow in tie-breaking order (number, rare,
// capitalized), configured ones only.
type classSet struct {
	names    []string
	eps      []float64
	mechs    []mechanism.Mechanism // mechs[0] is the base mechanism
	rareRank int                   // 0: no rare class
	number   int8                  // index of each class in names; -1 when not configured
	rare     int8
	capital  int8
}

// NewWithClasses returns a privatizer applying m (built by mechanism.New)
// to the words of asset a for the default class, and the same mechanism at
// the ε that classes gives each configured class (see the Class
// constants). Every class's mechanism is built by mechanism.New with mopts
// and m's output vocabulary, hence the same metric and outputs; a class at
// m's ε shares m. Each ε is checked as mechanism.New checks it
// (mechanism.ErrInvalidEpsilon, mechanism.ErrEpsilonSaturated).
//
// A memo holds one response per word for one mechanism at one ε: it is
// refused (ErrMemoMismatch) when a class's ε differs from base.
//
// Guarantee (docs/TEXT_PRIVACY.md, "Per-class ε"): each word is
// privatized by a mechanism that is ε_c·d-metric-DP for its class c, so
// two texts whose words fall in the same classes, position by position,
// are indistinguishable up to exp(Σ_i ε_{c_i}·d(w_i, w'_i)). Between words
// of different classes nothing is claimed: a word's class is disclosed.
// For the number and capitalized classes that adds nothing to what the
// output already discloses (token kinds and capitalization classes); the
// rare class discloses, for each word, whether the vocabulary id it is
// privatized as (its own; for a stand-in, its word's) is ≥ RareRank.
func NewWithClasses(m mechanism.Mechanism, a *wva.Asset, classes Classes, mopts mechanism.Options, opt Options) (*Privatizer, error) {
	if a == nil || m == nil {
		return nil, fmt.Errorf("privatize: %w: a nil mechanism or asset", ErrInvalid)
	}
	f, ok := m.(mechanism.Facts)
	if !ok {
		return nil, fmt.Errorf("privatize: %w: classes need a mechanism built by package mechanism, not %T", mechanism.ErrUnknownMechanism, m)
	}
	name, base := f.Name(), m.Epsilon()
	mopts.Outputs = f.Outputs()
	switch n := a.Len(); {
	case classes.RareRank < 0 || classes.RareRank >= n:
		return nil, errwrap.Tag(ErrInvalid, "privatize: RareRank %d not in [1, %d]: a word of vocabulary rank ≥ RareRank is rare, and this asset has %d words", classes.RareRank, n-1, n)
	case classes.Rare != 0 && classes.RareRank == 0:
		return nil, errwrap.Tag(ErrInvalid, "privatize: a rare-class ε needs RareRank in [1, %d]", n-1)
	case classes.Rare == 0 && classes.RareRank != 0:
		return nil, errwrap.Tag(ErrInvalid, "privatize: RareRank %d needs a rare-class ε", classes.RareRank)
	}
	if opt.Memo != nil {
		if err := classes.CheckMemo(base); err != nil {
			return nil, err
		}
	}
	cs := &classSet{names: []string{ClassDefault}, eps: []float64{base}, mechs: []mechanism.Mechanism{m},
		rareRank: classes.RareRank, number: -1, rare: -1, capital: -1}
	for _, c := range []struct {
		name string
		eps  float64
		idx  *int8
	}{{ClassNumber, classes.Number, &cs.number}, {ClassRare, classes.Rare, &cs.rare}, {ClassCapitalized, classes.Capitalized, &cs.capital}} {
		if c.eps == 0 {
			continue
		}
		cm := m
		if c.eps != base {
			// NaN and negative ε are refused here, as for the base.
			var err error
			if cm, err = mechanism.New(name, a, c.eps, mopts); err != nil {
				return nil, fmt.Errorf("%s class: %w", c.name, err)
			}
		}
		*c.idx = int8(len(cs.names))
		cs.names, cs.eps, cs.mechs = append(cs.names, c.name), append(cs.eps, c.eps), append(cs.mechs, cm)
	}
	p, err := New(m, a, opt)
	if err != nil {
		return nil, err
	}
	p.classes = cs
	return p, nil
}

// classOf returns the index in cs of the class of a vocabulary token tk
// of frequency rank rank (the id it is privatized as: for a stand-in, its
// word's), whose word has capitalization class word. Nothing else of the
// input is looked at.
func (cs *classSet) classOf(tk tokenize.Token, rank int, word tokenize.Case) uint8 {
	best := 0
	consider := func(i int8, matches bool) {
		if i >= 0 && matches && (best == 0 || cs.eps[i] < cs.eps[best]) {
			best = int(i)
		}
	}
	consider(cs.number, tk.Kind == tokenize.Number)
	consider(cs.rare, rank >= cs.rareRank)
	consider(cs.capital, word == tokenize.Title || word == tokenize.Upper)
	return uint8(best)
}

// counts returns a zeroed per-class bill.
func (cs *classSet) counts() []ClassCount {
	out := make([]ClassCount, len(cs.names))
	for i := range out {
		out[i] = ClassCount{Class: cs.names[i], Epsilon: cs.eps[i]}
	}
	return out
}

// total is Σ over classes of (Words − Memoized)·ε: each fresh word's ε,
// summed class by class.
func total(counts []ClassCount) float64 {
	s := 0.0
	for _, c := range counts {
		s += float64(c.Words-c.Memoized) * c.Epsilon
	}
	return s
}
