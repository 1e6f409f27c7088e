package privatize

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/internal/wva"
)

// Out-of-vocabulary policies. Both release nothing about the token's
// content; there is deliberately no pass-through policy.
const (
	// OOVRandomWord replaces the token by a uniformly random vocabulary
	// word (the default): the output is independent of the token. When
	// the mechanism restricts its outputs (mechanism.Facts.Outputs), the
	// word is drawn uniformly from the allowed ones.
	OOVRandomWord = "random-word"
	// OOVPlaceholder replaces the token by Options.Placeholder.
	OOVPlaceholder = "placeholder"
)

// Number policies: what happens to Number tokens ("5", "1990", "3.5",
// "1,000"). Digits next to letters ("10am", "2nd", "1990s") make Other
// tokens, which always go to the OOV policy.
const (
	// NumbersPrivatize (the default) treats a number like a word: one the
	// vocabulary holds is privatized by the mechanism, any other goes to
	// the OOV policy.
	NumbersPrivatize = "privatize"
	// NumbersReplace sends every number to the OOV policy, vocabulary or
	// not: no output word depends on a number of the input.
	NumbersReplace = "replace"
)

// DefaultPlaceholder is the OOVPlaceholder replacement unless another is
// given: a bullet, which is punctuation, never a word.
const DefaultPlaceholder = "•"

// DefaultMaxTextBytes bounds one call's input (16 MiB); MaxTextBytesLimit
// bounds what Options.MaxTextBytes may raise it to.
const (
	DefaultMaxTextBytes = 16 << 20
	MaxTextBytesLimit   = 1 << 30
)

// privatizedPunct is what punctuation becomes with PrivatizePunctuation: a
// uniform choice, independent of the input character.
var privatizedPunct = []string{".", ",", ";", ":", "!", "?", "-", "'", "\"", "(", ")"}

// Text errors.
var (
	ErrEmptyText    = errors.New("empty text")
	ErrTextTooLarge = errors.New("text too large")
	ErrOOVPolicy    = errors.New("unknown out-of-vocabulary policy")
	ErrNumbers      = errors.New("unknown numbers policy")
	ErrNoUnitLoss   = errors.New("the mechanism's metric loss is unknown on this device (P_avg unknown), so it cannot be charged to a ledger")
	ErrInvalid      = errors.New("invalid argument")
	ErrMemoMismatch = errors.New("the memo was opened for another mechanism, ε or asset")
)

// Options configure a Privatizer. The zero value is the safe
// default: random-word OOV policy, punctuation kept, no ledger, no memo.
type Options struct {
	OOV                  string // OOVRandomWord (default when empty) or OOVPlaceholder
	Placeholder          string // for OOVPlaceholder; DefaultPlaceholder when empty
	Numbers              string // NumbersPrivatize (default when empty) or NumbersReplace
	PrivatizePunctuation bool   // replace each punctuation character by a uniform one
	MaxTextBytes         int    // 0 means DefaultMaxTextBytes; at most MaxTextBytesLimit
	// Ledger, if set, is charged the call's metric loss before any text
	// is returned; a charge over a cap fails the call with no text.
	// Privatizer.Close closes the Ledger and the Memo.
	Ledger *ledger.Ledger
	// Memo, if set, answers each word with its permanent response (package
	// memo); only words answered for the first time cost privacy. It must
	// have been opened with MemoIdentity of this privatizer's mechanism and
	// asset. With a Ledger too, the ledger must have been opened bound to
	// the memo file (ledger.Options.Bind: MemoBinding), so a memo deleted
	// or replaced under a live ledger fails closed instead of drawing new
	// responses for old words.
	Memo *memo.Memo
}

// Accounting is one text's privacy bill.
type Accounting struct {
	// Mechanism names the mechanism (mechanism.NameBRR, ...) when it is known.
	Mechanism string
	// Words is how many words went through the mechanism, counting each
	// piece of a word cut into pieces ("do" and "n't" of "don't"), each
	// segment of a hyphenated word, each stand-in and each number the
	// mechanism privatized. Tokens replaced by the OOV
	// policy (out-of-vocabulary words and pieces, other numbers, e-mail
	// addresses, URLs, emoji) cost nothing: their replacement does not
	// depend on them.
	Words int
	// OOV is how many content tokens and pieces the OOV policy replaced.
	OOV int
	// Memoized is how many of Words were answered from the memo: they
	// repeat an earlier response and cost nothing more.
	Memoized int
	// Epsilon is the per-word ε, in the mechanism's metric (Metric).
	Epsilon float64
	// Metric names the mechanism's metric d (Mechanism.Metric), the unit
	// Epsilon and TotalEpsilon are in.
	Metric string
	// TotalEpsilon = (Words − Memoized)·Epsilon: the text is
	// TotalEpsilon-bounded in the sense of metric DP composition over its
	// freshly privatized words (ε·Σ d(w_i, w'_i)). With word classes
	// (NewWithClasses) it is Σ over Classes of (Words − Memoized)·Epsilon:
	// each fresh word counted at its own class's ε, and Epsilon is the
	// default class's.
	TotalEpsilon float64
	// Classes splits Words by word class, the default class first, when
	// the privatizer has classes (NewWithClasses); nil otherwise.
	Classes []ClassCount
	// PAvg is the mean metric distance between two vocabulary words; the
	// metric loss ε·PAvg per word compares ε within one mechanism, not
	// across mechanisms. NaN when unknown on this device (see LossUnknown): never
	// 0, which would read as "no loss".
	PAvg float64
	// UnitFree = TotalEpsilon·PAvg, what a ledger is charged; NaN when
	// PAvg is unknown.
	UnitFree float64
	// LossUnknown says why PAvg and UnitFree are unknown ("" when known).
	LossUnknown string
	// Ledger is the ledger's receipt, when one was charged. A block of
	// texts (PrivatizeBlock) shares one charge and one receipt.
	Ledger *ledger.Receipt
}

// Result is a privatized text and its bill.
type Result struct {
	// Text is the privatized text: the input's layout with every content
	// token replaced.
	Text string
	// Accounting is this text's privacy bill (in a block, Ledger is the
	// block's shared receipt).
	Accounting Accounting
}

// Privatizer privatizes whole texts word by word, keeping the layout.
//
// What the output discloses about the input: its layout (whitespace, and
// punctuation unless PrivatizePunctuation), the number and kinds of its
// tokens (hence its length in words), each word's capitalization class
// (lower, Title, UPPER), which apostrophe its clitics used, and where its
// hyphenated words are cut. Every content token is replaced: vocabulary
// words, the asset's stand-ins (privatized as the vocabulary word each
// stands in for) and numbers by the mechanism, everything else by the OOV
// policy. Nothing passes through. A word with clitics ("don't", "I’m") is
// privatized piece by piece and written back as one, a hyphenated word
// segment by segment with its hyphens (pieces.go).
//
// Time and memory are linear in the text: one tokenizing pass that looks
// words up, the mechanism's draws (a constant per word), and one
// assembling pass that draws the OOV and punctuation replacements and
// writes the output. Without a memo a call allocates at most 8 times the
// text's size plus a constant on the default asset (with probability
// 1 − 2⁻²⁰ per text, output.go): the output once, in a builder grown to
// a bound on its size, and at most 3 bytes per input byte besides
// (docs/TEXT_PRIVACY.md, "Memory").
//
// A Privatizer is safe for concurrent use with one random source per
// goroutine.
type Privatizer struct {
	m       mechanism.Mechanism
	asset   *wva.Asset
	outputs *mechanism.Outputs // the mechanism's output vocabulary; nil: every word
	opt     Options
	pavg    float64
	known   bool
	unknown string
	// acc is every text's Accounting before its counts: the mechanism's
	// ε, metric (a string some mechanisms format on each call) and name,
	// and the metric loss's constants, fixed at New.
	acc     Accounting
	classes *classSet // nil: every word at m's ε (New)
	// fullWords[i] is cliticFull[i].full when the asset has it and the
	// mechanism may release it, else "" (pieces.go).
	fullWords [len(cliticFull)]string
	oov       oovLengths // the OOV words' output lengths, for outputBound (output.go)
	life      lifecycle  // calls in progress and Close (close.go)
}

// New returns a privatizer applying m to the words of asset
// (m must have been built over the same asset).
func New(m mechanism.Mechanism, asset *wva.Asset, opt Options) (*Privatizer, error) {
	if m == nil || asset == nil {
		return nil, fmt.Errorf("privatize: %w: a nil mechanism or asset", ErrInvalid)
	}
	if m.Len() != asset.Len() {
		return nil, errwrap.Tag(ErrInvalid, "privatize: the mechanism covers %d words, the asset %d: build the mechanism over this asset", m.Len(), asset.Len())
	}
	switch opt.OOV {
	case "":
		opt.OOV = OOVRandomWord
	case OOVRandomWord, OOVPlaceholder:
	default:
		return nil, fmt.Errorf("privatize: %w %q (want %q or %q)", ErrOOVPolicy, opt.OOV, OOVRandomWord, OOVPlaceholder)
	}
	if opt.Placeholder == "" {
		opt.Placeholder = DefaultPlaceholder
	}
	switch opt.Numbers {
	case "":
		opt.Numbers = NumbersPrivatize
	case NumbersPrivatize, NumbersReplace:
	default:
		return nil, fmt.Errorf("privatize: %w %q (want %q or %q)", ErrNumbers, opt.Numbers, NumbersPrivatize, NumbersReplace)
	}
	switch {
	case opt.MaxTextBytes == 0:
		opt.MaxTextBytes = DefaultMaxTextBytes
	case opt.MaxTextBytes < 0 || opt.MaxTextBytes > MaxTextBytesLimit:
		return nil, errwrap.Tag(ErrInvalid, "privatize: MaxTextBytes %d not in [0, %d] (0: %d)", opt.MaxTextBytes, MaxTextBytesLimit, DefaultMaxTextBytes)
	}
	p := &Privatizer{m: m, asset: asset, opt: opt}
	if f, ok := m.(mechanism.Facts); ok {
		p.outputs = f.Outputs()
		if p.outputs != nil && p.outputs.Vocabulary() != asset.Len() {
			return nil, errwrap.Tag(mechanism.ErrOutputsMismatch, "privatize: the mechanism's output vocabulary covers %d words, the asset %d", p.outputs.Vocabulary(), asset.Len())
		}
	}
	for i, c := range cliticFull {
		if id, ok := asset.Lookup(c.full); ok && (p.outputs == nil || p.outputs.Allowed(id)) {
			p.fullWords[i] = c.full
		}
	}
	p.pavg, p.known = mechanism.MeanDistance(m)
	if !p.known {
		p.pavg = math.NaN()
		p.unknown = fmt.Sprintf("P_avg of the %s metric is not known on this device", m.Metric())
	}
	p.acc = Accounting{Epsilon: m.Epsilon(), Metric: m.Metric(), PAvg: p.pavg, LossUnknown: p.unknown}
	if f, ok := m.(mechanism.Facts); ok {
		p.acc.Mechanism = f.Name()
	}
	if opt.Ledger != nil && !p.known {
		return nil, errwrap.Tag(ErrNoUnitLoss, "privatize: the metric loss of the %s metric is unknown on this device (P_avg unknown), so it cannot be charged to a ledger (open without a ledger, or use another mechanism)", m.Metric())
	}
	if opt.Memo != nil {
		want := MemoIdentity(m, asset)
		if opt.Memo.Identity() != want {
			return nil, fmt.Errorf("privatize: %w", ErrMemoMismatch)
		}
		if b := MemoBinding(opt.Memo); opt.Ledger != nil && b.ID != "" && opt.Ledger.Bound() != b {
			// The ledger records the binding as it opens (ledger.Options.Bind),
			// so a memo deleted or replaced under it fails closed.
			return nil, errwrap.Tag(ErrInvalid, "privatize: the ledger was not opened bound to the memo (ledger.Options.Bind: MemoBinding)")
		}
	}
	return p, nil
}

// Privatize returns the privatized text and its accounting. With a ledger,
// the call is charged first; if the charge fails (for example
// ledger.ErrBudgetExceeded) it returns the error and no text.
func (p *Privatizer) Privatize(text string, src rand.Source) (*Result, error) {
	res, err := p.block(context.Background(), []string{text}, src, nil, nil)
	if err != nil {
		return nil, err
	}
	return &res[0], nil
}

// PrivatizeBlock privatizes several texts (for example the lines of a
// stream that are already at hand) under ONE ledger charge and one memo
// transaction: results[i] is texts[i]'s, each with its own accounting, all
// sharing the block's receipt. Nothing is returned unless the whole block
// is paid for.
//
// prepare, if not nil, sees the results before anything is charged or
// recorded (their Accounting.Ledger is still nil): a caller that must not
// fail after paying, such as one encoding the results, does its fallible
// work there; an error from prepare cancels the block with nothing charged.
// ctx is checked between words, so a long text can be cancelled; then
// ctx.Err() is returned and nothing is charged or released.
func (p *Privatizer) PrivatizeBlock(ctx context.Context, texts []string, src rand.Source, prepare func([]Result) error) ([]Result, error) {
	return p.block(ctx, texts, src, prepare, nil)
}

// tokenSource says what produced an output token (for tests).
type tokenSource uint8

const (
	fromLayout tokenSource = iota
	fromMechanism
	fromOOV
	fromPunct
)

// hyphen is the layout token between the segments of a hyphenated word.
var hyphen = tokenize.Token{Text: "-", Kind: tokenize.Punct, Part: tokenize.Single, Whole: "-"}

// cancelEvery is how many words or tokens pass between context checks.
const cancelEvery = 256

// recordFunc sees every output token with its input (for tests).
type recordFunc func(in tokenize.Token, out string, how tokenSource)

// block privatizes texts in three passes: (1) tokenize each text and look
// its words up; (2) get every word occurrence's response — drawn fresh for
// each, or through the memo; (3) assemble the outputs, drawing OOV and
// punctuation replacements (independent of the input), let prepare see
// them, and pay. Nothing is returned before the charge is durable, and
// with a memo the new responses are recorded only after it.
func (p *Privatizer) block(ctx context.Context, texts []string, src rand.Source, prepare func([]Result) error, record recordFunc) ([]Result, error) {
	if err := p.begin(); err != nil {
		return nil, err
	}
	defer p.leave()
	if src == nil {
		return nil, fmt.Errorf("privatize: %w", mechanism.ErrNilSource)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := p.checkTexts(texts); err != nil {
		return nil, err
	}
	sc, err := p.scan(ctx, texts)
	if err != nil {
		return nil, err
	}
	ids, cls := sc.ids, sc.cls

	var out []Result
	var receipt *ledger.Receipt
	// finish runs once the responses are drawn (inside the memo's
	// transaction when there is one): passes 3 and the payment.
	finish := func(resp []int32, memoized []bool) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		out = p.assemble(texts, &sc, resp, memoized, src, record)
		if prepare != nil {
			if err := prepare(out); err != nil {
				return err
			}
		}
		if p.opt.Ledger == nil {
			return nil
		}
		// The block's bill, by the same arithmetic as each text's, so a
		// block of one text is charged exactly its UnitFree.
		bill := p.textAccounting(textCursor{}, sc.ends[len(texts)-1], memoized, cls)
		rec, err := p.opt.Ledger.Charge(bill.TotalEpsilon * p.pavg)
		if err != nil {
			return err
		}
		receipt = &rec
		return nil
	}
	if err := p.respond(ctx, ids, cls, src, finish); err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Accounting.Ledger = receipt
	}
	if p.opt.Memo == nil {
		// Nothing holds pass 1's arrays any more (a memo is left out: it
		// is handed the word ids, and need not be read for what it keeps).
		sc.release()
	}
	return out, nil
}

// checkTexts refuses an empty block, an empty text and a text or block
// over MaxTextBytes.
func (p *Privatizer) checkTexts(texts []string) error {
	if len(texts) == 0 {
		return fmt.Errorf("privatize: %w", ErrEmptyText)
	}
	total := 0
	for _, t := range texts {
		switch {
		case t == "":
			return fmt.Errorf("privatize: %w", ErrEmptyText)
		case len(t) > p.opt.MaxTextBytes:
			return errwrap.Tag(ErrTextTooLarge, "privatize: a text of %d bytes exceeds the limit of %d", len(t), p.opt.MaxTextBytes)
		}
		total += len(t)
	}
	if total > p.opt.MaxTextBytes {
		return errwrap.Tag(ErrTextTooLarge, "privatize: a block of %d bytes exceeds the limit of %d", total, p.opt.MaxTextBytes)
	}
	return nil
}

// scanned is what pass 1 finds in a block's texts: everything a text's
// accounting depends on, and nothing drawn.
type scanned struct {
	ids    []int32      // the word ids, in order of appearance
	cls    []uint8      // with classes, each word's class; else nil
	found  bitset       // which content segments are words
	ends   []textCursor // ends[i]: where text i's segments and words end
	shapes []textShape  // shapes[i]: what text i's output size depends on besides the draws (output.go)
	bufs   *passBufs    // where the arrays are handed back (release)
}

// scan runs pass 1 of a block (checked by checkTexts): tokenize each text
// once and look its words up. It draws nothing.
func (p *Privatizer) scan(ctx context.Context, texts []string) (scanned, error) {
	// Word ids in order of appearance, which content segments are words
	// (found), and with classes the class of each word (from the id, the
	// kind and the word's case class only). The slices are sized without a
	// counting pass (output.go, idSlice): found by the text's size, ids
	// and cls from room for a short text, grown at most once to a bound.
	total := 0
	for _, t := range texts {
		total += len(t)
	}
	bufs := getPassBufs() // a block before's arrays, when one was released (reuse.go)
	ids, cls := newIDSlices(bufs, p.classes != nil)
	found := bitset(reuse(bufs.found, (total+63)/64)) // every content segment has a byte of its own
	ends := reuse(bufs.ends, len(texts))
	shapes := reuse(bufs.shapes, len(texts))
	seg, read := 0, 0 // read: the bytes of the block before the current token
	for i, t := range texts {
		var word tokenize.Case // as in writeText: each text starts afresh
		var sh textShape
		var sc tokenize.Scanner
		sc.Reset(t)
		for k := 0; ; k++ {
			if k%cancelEvery == 0 && ctx.Err() != nil {
				return scanned{}, ctx.Err()
			}
			tk, ok := sc.Next()
			if !ok {
				break
			}
			at := read
			read += len(tk.Text)
			if !tk.Kind.Content() {
				sh.layout(tk, p.opt.PrivatizePunctuation)
				continue
			}
			if tk.Part == tokenize.Clitic {
				sh.clitics++
			}
			pieceCase(tk, &word) // keeps word's class for its clitics
			eachSegment(tk, func(sg tokenize.Token, last bool) {
				if !last {
					sh.layoutBytes++ // the hyphen written after it
				}
				if id, rank, ok := p.lookup(sg); ok {
					found.set(seg)
					ids.add(int32(id), total-at, len(texts)-i)
					if cls != nil {
						cls.add(p.classes.classOf(sg, rank, segmentCase(tk, sg, word)), total-at, len(texts)-i)
					}
				}
				seg++
				at += len(sg.Text) + 1 // the next segment's start, past its hyphen
			})
		}
		ends[i] = textCursor{seg: seg, word: len(ids.s)}
		shapes[i] = sh
	}
	sc := scanned{ids: ids.s, found: found, ends: ends, shapes: shapes, bufs: bufs}
	if cls != nil {
		sc.cls = cls.s
	}
	return sc, nil
}

// respond draws the response to every word occurrence of ids and hands
// them to finish (memoized nil: none is memoized; without a memo the
// responses overwrite ids). Without a memo each occurrence is privatized afresh
// (fresh noise per word). With a memo, package memo looks up, draws and
// records atomically across goroutines and processes, calling finish
// before it records anything.
//
// cls, when not nil, holds each occurrence's class: it is privatized by
// that class's mechanism. A memo is only ever combined with classes whose
// ε all equal the base ε (NewWithClasses), so the memo's draws use p.m.
func (p *Privatizer) respond(ctx context.Context, ids []int32, cls []uint8, src rand.Source, finish func(resp []int32, memoized []bool) error) error {
	draws := 0
	m := p.m
	draw := func(w int32) (int32, error) {
		if draws++; draws%cancelEvery == 0 && ctx.Err() != nil {
			return -1, ctx.Err()
		}
		y, err := m.Privatize(int(w), src)
		if err != nil {
			return -1, err // the mechanism's error names it
		}
		return int32(y), nil
	}
	if p.opt.Memo != nil {
		_, _, err := p.opt.Memo.Resolve(ids, draw, finish)
		return err
	}
	// Each response replaces its word in ids (nothing reads the word
	// after its draw), and memoized is nil: no word is memoized.
	if b, ok := m.(mechanism.Batcher); ok && cls == nil {
		if err := respondBatch(ctx, b, ids, src); err != nil {
			return err
		}
		return finish(ids, nil)
	}
	resp := ids
	for i, w := range ids {
		if cls != nil {
			m = p.classes.mechs[cls[i]]
		}
		var err error
		if resp[i], err = draw(w); err != nil {
			return err
		}
	}
	return finish(resp, nil)
}

// lookup returns the vocabulary id the mechanism privatizes a token (or
// piece, or segment of a word) as, and its rank for word classes: a Word,
// or a Number unless NumbersReplace, whose lookup key is a vocabulary
// word (rank = id, the asset's frequency rank); else a Word whose key is
// one of the asset's stand-ins, privatized as the vocabulary word it
// stands in for, with that word's rank too (rank = its id): a stand-in is
// in the rare class exactly when its word is, so under per-class ε it
// follows its word's law, as the distance 0 between them promises. Every other content token
// goes to the OOV policy; Other tokens (e-mail addresses, URLs, letters
// mixed with digits, emoji) always do. A Word holds no digit (the
// tokenizer makes a token with digits a Number or Other), and stand-ins
// are never looked up for Numbers, so with NumbersReplace no token
// bearing a digit reaches the mechanism.
//
// A stand-in is a deterministic map, fixed by the asset, from a word to a
// vocabulary word, applied before the mechanism: the mechanism's metric
// DP guarantee holds for stand-ins with the distance between the words
// they stand in for (0 between a stand-in and its word), and the output is
// a vocabulary word, never the stand-in itself.
func (p *Privatizer) lookup(tk tokenize.Token) (id, rank int, ok bool) {
	switch {
	case tk.Kind == tokenize.Word:
	case tk.Kind == tokenize.Number && p.opt.Numbers != NumbersReplace:
	default:
		return -1, -1, false
	}
	return lookupIn(p.asset, tk, true)
}

// lookupIn is lookup's vocabulary search for a token already admitted as
// a candidate: tk's key in a's vocabulary, then, for a Word with
// standIns, among a's stand-ins. WordIDs shares it.
func lookupIn(a *wva.Asset, tk tokenize.Token, standIns bool) (id, rank int, ok bool) {
	// A token whose key must be longer than any vocabulary word is in
	// neither the vocabulary nor the stand-ins: not looking it up spares
	// forming the key of a giant token.
	if len(tk.Text) > tokenize.MaxKeyShrink*wva.MaxWordLen {
		return -1, -1, false
	}
	// Most words are their own key; any other key is formed in a stack
	// buffer, and converting it to a string that does not escape needs no
	// allocation up to 32 bytes.
	key := tk.Text
	if !tokenize.IsKey(key) {
		var buf [64]byte
		key = string(tokenize.AppendKey(buf[:0], tk.Text))
	}
	if id, ok := a.Lookup(key); ok {
		return id, id, true
	}
	if standIns && tk.Kind == tokenize.Word {
		if id, ok := a.StandIn(key); ok {
			return id, id, true
		}
	}
	return -1, -1, false
}

// oovWord draws the OOV policy's random word: uniform over the words the
// mechanism may release (all of them when it does not restrict its
// outputs), independent of the token it replaces.
func (p *Privatizer) oovWord(src rand.Source) string {
	if p.outputs != nil {
		return p.asset.Word(p.outputs.Uniform(src))
	}
	return p.asset.Word(sample.UniformInt(src, p.asset.Len()))
}

// assemble writes each text's output: layout kept, vocabulary words and
// pieces replaced by their responses in order, everything else by the OOV
// policy, the pieces of a word joined back (pieces.go). sc is what pass 1
// found (sc.found: which content segments are words, in the same order).
// Each text is written once, into a builder grown first to a bound on its
// size (output.go, outputBound). Its bill is textAccounting's.
func (p *Privatizer) assemble(texts []string, sc *scanned, resp []int32, memoized []bool, src rand.Source, record recordFunc) []Result {
	out := results(len(texts)) // a released array, or a new one (results.go)
	var at textCursor
	var key [32]byte
	var draws rand.ChaCha8
	for i, t := range texts {
		// The OOV and punctuation draws come from a ChaCha8 stream keyed
		// with 32 bytes of src per text, as they always have: the same
		// seeds give the same outputs.
		for k := 0; k < len(key); k += 8 {
			binary.LittleEndian.PutUint64(key[k:], src.Uint64())
		}
		draws.Seed(key)
		from := at
		var b strings.Builder
		b.Grow(p.outputBound(sc.shapes[i], from, sc.ends[i], resp))
		p.writeText(t, &at, sc.found, resp, &draws, &sink{b: &b}, record)
		out[i] = Result{Text: b.String(), Accounting: p.textAccounting(from, sc.ends[i], memoized, sc.cls)}
	}
	return out
}

// textCursor is where a text's content segments and words start in a
// block's found bits and responses.
type textCursor struct{ seg, word int }

// writeText writes one text's output to w, drawing the OOV and
// punctuation replacements from draws, and advances at past its segments
// and words (to where pass 1 ended the text: the same tokens, the same
// segments). record, when not nil, sees every output token (its strings
// are slices of the output).
func (p *Privatizer) writeText(t string, at *textCursor, found bitset, resp []int32,
	draws rand.Source, w *sink, record recordFunc) {
	emit := func(in tokenize.Token, start int, how tokenSource) {
		if record != nil {
			record(in, w.b.String()[start:], how)
		}
	}
	var word tokenize.Case // the class of the word being written (pieceCase)
	var prev string        // the lower-case word the last piece wrote, or the placeholder
	var sc tokenize.Scanner
	sc.Reset(t)
	for {
		tk, ok := sc.Next()
		if !ok {
			break
		}
		start := w.n
		switch {
		case tk.Kind == tokenize.Space || tk.Kind == tokenize.Punct && !p.opt.PrivatizePunctuation:
			w.str(tk.Text)
			emit(tk, start, fromLayout)
			continue
		case tk.Kind == tokenize.Punct:
			w.str(privatizedPunct[sample.UniformInt(draws, len(privatizedPunct))])
			emit(tk, start, fromPunct)
			continue
		}
		c := pieceCase(tk, &word)
		if tk.Part != tokenize.Clitic {
			prev = "" // a new word
		}
		eachSegment(tk, func(seg tokenize.Token, last bool) {
			c := segmentCase(tk, seg, c)
			out, how := "", fromMechanism
			// Pass 1's test, so the k-th word found is resp[k].
			if found.has(at.seg) {
				k := at.word
				out = p.asset.Word(int(resp[k]))
				at.word++
			} else {
				how = fromOOV
				if p.opt.OOV != OOVPlaceholder {
					out = p.oovWord(draws)
				}
			}
			at.seg++
			start := w.n
			if out == "" { // the placeholder, written as given
				ph := p.opt.Placeholder
				if tk.Part == tokenize.Clitic && !(strings.HasPrefix(tokenize.Key(ph), "'") || tokenize.Key(ph) == "n't") {
					w.str(" ")
				}
				w.str(ph)
				prev = ph
			} else {
				var glued bool
				out, glued = pieceOutput(seg.Part, out, prev, &p.fullWords)
				prev = out
				// A clitic is written as joinClitic writes it: glued on or
				// after a space, with the input's apostrophe.
				curly := false
				if tk.Part == tokenize.Clitic {
					if !glued {
						w.str(" ")
					}
					curly = strings.Contains(tk.Text, "’")
				}
				w.word(c, out, curly)
			}
			emit(seg, start, how)
			if !last {
				start := w.n
				w.str("-")
				emit(hyphen, start, fromLayout)
			}
		})
	}
}

// textAccounting is the bill of the words and segments between from and
// to (one text's, or a whole block's): the privatizer's constants, Words
// and OOV counted by pass 1 (every content segment is either a word the
// mechanism privatizes or a token the OOV policy replaces), Memoized and
// Classes from the responses, and the ε and metric-loss totals. It is the
// one place these are computed, for Privatize, PrivatizeBlock's ledger
// charge and Cost alike. memoized is nil when no word is memoized.
func (p *Privatizer) textAccounting(from, to textCursor, memoized []bool, cls []uint8) Accounting {
	acc := p.acc
	if p.classes != nil {
		acc.Classes = p.classes.counts()
	}
	acc.Words = to.word - from.word
	acc.OOV = to.seg - from.seg - acc.Words
	for k := from.word; k < to.word; k++ {
		m := memoized != nil && memoized[k]
		if m {
			acc.Memoized++
		}
		if cls != nil {
			c := &acc.Classes[cls[k]]
			c.Words++
			if m {
				c.Memoized++
			}
		}
	}
	acc.TotalEpsilon = float64(acc.Words-acc.Memoized) * acc.Epsilon
	if acc.Classes != nil {
		acc.TotalEpsilon = total(acc.Classes)
	}
	acc.UnitFree = acc.TotalEpsilon * acc.PAvg // NaN when P_avg is unknown
	return acc
}

// MemoIdentity is what a memo's responses for m over a are valid for: the
// mechanism's name, every parameter, and the asset's SHA-256.
func MemoIdentity(m mechanism.Mechanism, a *wva.Asset) memo.Identity {
	id := memo.Identity{Asset: a.SHA256()}
	if f, ok := m.(mechanism.Facts); ok {
		id.Mechanism, id.Params = f.Name(), f.Params()
	} else {
		id.Mechanism, id.Params = "unnamed", fmt.Sprintf("epsilon=%s metric=%s", strconv.FormatFloat(m.Epsilon(), 'g', -1, 64), m.Metric())
	}
	return id
}

// MemoBinding is the memo file m's binding in a privacy ledger
// (ledger.Options.Bind): its keyed name (memo.Memo.BindingName), its file
// id, and the name earlier versions bound it under, to be renamed. Its ID
// is "" for a memo in memory, which is not bound.
func MemoBinding(m *memo.Memo) ledger.Binding {
	if m.FileID() == "" {
		return ledger.Binding{}
	}
	return ledger.Binding{Name: m.BindingName(), ID: m.FileID(), Legacy: legacyMemoBinding(m.Identity())}
}

// legacyMemoBinding is the name earlier versions bound a memo under: an
// unkeyed hash of its identity, which anyone can match against the few
// mechanisms, ε and assets. New bindings use memo.Memo.BindingName, keyed
// by the memo's secret; this name is only looked for, to be renamed.
func legacyMemoBinding(id memo.Identity) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%q %q %x", id.Mechanism, id.Params, id.Asset)))
	return fmt.Sprintf("memo %x", h[:16])
}
