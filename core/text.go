package core

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/hamming"
	"github.com/wordveil/wordveil/ledger"
	"github.com/wordveil/wordveil/tokenize"
)

// Out-of-vocabulary policies. Both release nothing about the token's
// content; there is deliberately no pass-through policy.
const (
	// OOVRandomWord replaces the token by a uniformly random vocabulary
	// word (the default): the output is independent of the token.
	OOVRandomWord = "random-word"
	// OOVPlaceholder replaces the token by TextOptions.Placeholder.
	OOVPlaceholder = "placeholder"
)

// DefaultPlaceholder is the OOVPlaceholder replacement unless another is
// given: a bullet, which is punctuation, never a word.
const DefaultPlaceholder = "•"

// DefaultMaxTextBytes bounds one call's input (16 MiB).
const DefaultMaxTextBytes = 16 << 20

// privatizedPunct is what punctuation becomes with PrivatizePunctuation: a
// uniform choice, independent of the input character.
var privatizedPunct = []string{".", ",", ";", ":", "!", "?", "-", "'", "\"", "(", ")"}

// Text errors.
var (
	ErrEmptyText    = errors.New("core: empty text")
	ErrTextTooLarge = errors.New("core: text too large")
	ErrOOVPolicy    = errors.New("core: unknown out-of-vocabulary policy")
	ErrNoUnitLoss   = errors.New("core: the mechanism has no unit-free loss on this device (P_avg unknown), so it cannot be charged to a ledger")
)

// TextOptions configure a TextPrivatizer. The zero value is the safe
// default: random-word OOV policy, punctuation kept, no ledger.
type TextOptions struct {
	OOV                  string // OOVRandomWord (default when empty) or OOVPlaceholder
	Placeholder          string // for OOVPlaceholder; DefaultPlaceholder when empty
	PrivatizePunctuation bool   // replace each punctuation character by a uniform one
	MaxTextBytes         int    // 0 means DefaultMaxTextBytes
	// Ledger, if set, is charged the call's unit-free loss before any text
	// is returned; a charge over a cap fails the call with no text.
	Ledger *ledger.Ledger
	// Memo, if set, answers each word with its permanent response (see
	// Memo); only words answered for the first time cost privacy. It must
	// have been opened with MemoKey of this privatizer's mechanism and asset.
	Memo *Memo
}

// Accounting is one call's privacy bill.
type Accounting struct {
	// Words is how many words went through the mechanism. Tokens replaced
	// by the OOV policy (out-of-vocabulary words, numbers, e-mail
	// addresses, URLs, emoji) cost nothing: their replacement does not
	// depend on them.
	Words int `json:"words"`
	// OOV is how many content tokens the OOV policy replaced.
	OOV int `json:"oov"`
	// Memoized is how many of Words were answered from the memo: they
	// repeat an earlier response and cost nothing more.
	Memoized int `json:"memoized,omitempty"`
	// Epsilon is the per-word ε, in the mechanism's metric (Metric).
	Epsilon float64 `json:"epsilon"`
	Metric  string  `json:"metric"`
	// TotalEpsilon = (Words − Memoized)·Epsilon: the text is
	// TotalEpsilon-bounded in the sense of metric DP composition over its
	// freshly privatized words (ε·Σ d(w_i, w'_i)).
	TotalEpsilon float64 `json:"totalEpsilon"`
	// PAvg is the mean metric distance between two vocabulary words; the
	// unit-free loss ε·PAvg per word (papers/brr.txt §5) compares
	// mechanisms with different metrics. Zero when unknown.
	PAvg float64 `json:"pAvg"`
	// UnitFree = TotalEpsilon·PAvg, what a ledger is charged.
	UnitFree float64 `json:"unitFree"`
	// Ledger is the ledger's receipt, when one was charged.
	Ledger *ledger.Receipt `json:"ledger,omitempty"`
}

// TextResult is a privatized text and its bill.
type TextResult struct {
	Text       string     `json:"text"`
	Accounting Accounting `json:"accounting"`
}

// TextPrivatizer privatizes whole texts word by word, keeping the layout.
//
// What the output discloses about the input: its layout (whitespace, and
// punctuation unless PrivatizePunctuation), the number and kinds of its
// tokens (hence its length in words), and each word's capitalization class
// (lower, Title, UPPER). Every content token is replaced: vocabulary words
// by the mechanism, everything else by the OOV policy. Nothing passes
// through.
//
// A TextPrivatizer is safe for concurrent use with one random source per
// goroutine.
type TextPrivatizer struct {
	m     Mechanism
	asset *wva.Asset
	opt   TextOptions
	pavg  float64
}

// NewTextPrivatizer returns a privatizer applying m to the words of asset
// (m must have been built over the same asset).
func NewTextPrivatizer(m Mechanism, asset *wva.Asset, opt TextOptions) (*TextPrivatizer, error) {
	if m == nil || asset == nil {
		return nil, fmt.Errorf("core: text privatizer: %w", ErrEmptyVocabulary)
	}
	if m.Len() != asset.Len() {
		return nil, fmt.Errorf("core: text privatizer: mechanism over %d words, asset has %d", m.Len(), asset.Len())
	}
	switch opt.OOV {
	case "":
		opt.OOV = OOVRandomWord
	case OOVRandomWord, OOVPlaceholder:
	default:
		return nil, fmt.Errorf("%w %q (want %q or %q)", ErrOOVPolicy, opt.OOV, OOVRandomWord, OOVPlaceholder)
	}
	if opt.Placeholder == "" {
		opt.Placeholder = DefaultPlaceholder
	}
	if opt.MaxTextBytes <= 0 {
		opt.MaxTextBytes = DefaultMaxTextBytes
	}
	p := &TextPrivatizer{m: m, asset: asset, opt: opt, pavg: MeanDistance(m, asset)}
	if opt.Memo != nil && opt.Memo.key != MemoKey(m, asset) {
		return nil, fmt.Errorf("core: text privatizer: memo opened for %q, not %q", opt.Memo.key, MemoKey(m, asset))
	}
	if opt.Ledger != nil && p.pavg == 0 {
		return nil, fmt.Errorf("core: text privatizer with %s: %w", m.Metric(), ErrNoUnitLoss)
	}
	return p, nil
}

// Privatize returns the privatized text and its accounting. With a ledger,
// the call is charged first; if the charge fails (for example
// ledger.ErrBudgetExceeded) it returns the error and no text.
func (p *TextPrivatizer) Privatize(text string, src rand.Source) (*TextResult, error) {
	return p.privatize(text, src, nil)
}

// tokenSource says what produced an output token (for tests).
type tokenSource uint8

const (
	fromLayout tokenSource = iota
	fromMechanism
	fromOOV
	fromPunct
)

func (p *TextPrivatizer) privatize(text string, src rand.Source, record func(in tokenize.Token, out string, how tokenSource)) (*TextResult, error) {
	switch {
	case text == "":
		return nil, ErrEmptyText
	case len(text) > p.opt.MaxTextBytes:
		return nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTextTooLarge, len(text), p.opt.MaxTextBytes)
	case src == nil:
		return nil, ErrNilSource
	}
	var b strings.Builder
	b.Grow(len(text) + len(text)/4)
	acc := Accounting{Epsilon: p.m.Epsilon(), Metric: p.m.Metric(), PAvg: p.pavg}
	emit := func(in tokenize.Token, out string, how tokenSource) {
		b.WriteString(out)
		if record != nil {
			record(in, out, how)
		}
	}
	n := p.asset.Len()
	var fresh map[int32]int32 // this call's new memo responses
	if p.opt.Memo != nil {
		fresh = map[int32]int32{}
	}
	for s := text; len(s) > 0; {
		tk := tokenize.Next(s)
		s = s[len(tk.Text):]
		switch {
		case tk.Kind == tokenize.Space:
			emit(tk, tk.Text, fromLayout)
		case tk.Kind == tokenize.Punct && !p.opt.PrivatizePunctuation:
			emit(tk, tk.Text, fromLayout)
		case tk.Kind == tokenize.Punct:
			emit(tk, privatizedPunct[UniformInt(src, len(privatizedPunct))], fromPunct)
		default:
			if tk.Kind == tokenize.Word {
				if id, ok := p.asset.Lookup(tokenize.Key(tk.Text)); ok {
					out, memoized, err := p.respond(id, fresh, src)
					if err != nil {
						return nil, fmt.Errorf("core: privatize word %d of the text: %w", acc.Words+acc.OOV, err)
					}
					if memoized {
						acc.Memoized++
					}
					emit(tk, tokenize.Apply(tokenize.CaseOf(tk.Text), p.asset.Words[out]), fromMechanism)
					acc.Words++
					continue
				}
			}
			acc.OOV++
			if p.opt.OOV == OOVPlaceholder {
				emit(tk, p.opt.Placeholder, fromOOV)
			} else {
				w := p.asset.Words[UniformInt(src, n)]
				emit(tk, tokenize.Apply(tokenize.CaseOf(tk.Text), w), fromOOV)
			}
		}
	}
	acc.TotalEpsilon = float64(acc.Words-acc.Memoized) * acc.Epsilon
	acc.UnitFree = acc.TotalEpsilon * acc.PAvg
	// Charge, then record the memo, then release: a failure or crash at any
	// point can only over-charge, never release text that was not paid for.
	if p.opt.Ledger != nil {
		rec, err := p.opt.Ledger.Charge(acc.UnitFree)
		if err != nil {
			return nil, fmt.Errorf("core: privatize: %w", err)
		}
		acc.Ledger = &rec
	}
	if p.opt.Memo != nil {
		if err := p.opt.Memo.commit(fresh); err != nil {
			return nil, err
		}
	}
	return &TextResult{Text: b.String(), Accounting: acc}, nil
}

// respond privatizes word id, through the memo when there is one: a word
// answered before (or earlier in this text) gets its recorded response.
func (p *TextPrivatizer) respond(id int, fresh map[int32]int32, src rand.Source) (out int, memoized bool, err error) {
	if p.opt.Memo != nil {
		if y, ok := p.opt.Memo.get(id); ok {
			return y, true, nil
		}
		if y, ok := fresh[int32(id)]; ok {
			return int(y), true, nil
		}
	}
	out, err = p.m.Privatize(id, src)
	if err == nil && fresh != nil {
		fresh[int32(id)] = int32(out)
	}
	return out, false, err
}

// MeanDistance returns P_avg, the mean distance between two distinct
// vocabulary words in m's metric, or 0 where it cannot be had on the
// device. Hamming: exact from per-bit counts. One list: exactly (N+1)/3.
// Several lists (metric max_i d_πi): estimated from 200,000 fixed pairs
// (standard error about 0.1%). Euclidean TEM lists: 0 (the float vectors
// are not on the device).
func MeanDistance(m Mechanism, a *wva.Asset) float64 {
	switch mm := m.(type) {
	case *BRR, *TEMHamming:
		return hammingMean(a)
	case *DiffractorGeometric:
		return listsMean(mm.lists)
	case *DiffractorTEM:
		return listsMean(mm.lists)
	}
	return 0
}

func listsMean(lists []wva.Permutation) float64 {
	n := len(lists[0].Order)
	if n < 2 {
		return 0
	}
	if len(lists) == 1 {
		return float64(n+1) / 3
	}
	// A fixed stream: this is a statistic of the lists, not privatization
	// randomness, and it must be the same on every device.
	src := NewSeededSourceForEvaluation([32]byte{'p', 'a', 'v', 'g'})
	const pairs = 200000
	sum := 0.0
	for k := 0; k < pairs; k++ {
		x := UniformInt(src, n)
		y := UniformInt(src, n-1)
		if y >= x {
			y++
		}
		d := 0
		for _, l := range lists {
			d = max(d, absInt(int(l.Pos[x])-int(l.Pos[y])))
		}
		sum += float64(d)
	}
	return sum / pairs
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func hammingMean(a *wva.Asset) float64 { return hamming.MeanDistance(a.Codes) }
