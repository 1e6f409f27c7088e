package wva

import (
	"crypto/sha256"
	"math"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/wordveil/wordveil/internal/hamming"
)

// Asset is the decoded content of a .wva file: everything the on-device
// mechanisms read. Decode returns a fully validated Asset that may share
// memory with its input (Codes; see Decode for the contract on the input
// bytes); treat it as read-only (it is then safe for concurrent use).
//
// To write a file, fill Header's provenance fields and the data, then call
// Marshal, which checks the Asset with Validate and fills the derived header
// fields.
type Asset struct {
	// Header is the file's JSON header. A writer fills its provenance
	// fields; the derived ones (marked in Header) may be left zero for
	// Marshal to fill. Decode checks them against the sections.
	Header Header
	// words is the vocabulary in id order (id 0 = most frequent): unique,
	// non-empty, valid UTF-8, at most MaxWordLen bytes each. Word, Len and
	// Lookup read it; SetWords sets it.
	words vocab
	// wordsErr is why SetWords could not build the table (its text
	// exceeds maxVocabText); Validate reports it.
	wordsErr error
	// Codes holds the 256-bit code of each word, len(Codes) == Len().
	// Decoded with DecodeOptions.InPlace it usually aliases the file's
	// CODES section (whenever the host is little-endian and the section's
	// address is aligned for a Code), which may be read-only memory: never
	// write to it.
	Codes []hamming.Code
	// Lists holds the 1-Diffractor permutations (possibly none).
	Lists []Permutation
	// TEM holds the precomputed TEM balls, or nil.
	TEM *TEMLists
	// Floats holds the float vectors row-major, len == Len()·Header.Dim,
	// for research builds; nil when absent.
	Floats []float32
	// CusText holds CusText's output sets, or nil.
	CusText *CusTextSets
	// StandIns maps words outside the vocabulary to vocabulary ids (see
	// StandIns and StandIn), or nil. Validate refuses one that is a
	// vocabulary word; Decode need not (StandIn is consulted only after
	// Lookup, so such an entry is never reached).
	// An empty set is stored as no section, so it decodes as nil.
	StandIns *StandIns

	// decoded is set by DecodeWith: the header then describes the
	// sections (StoredListsMean).
	decoded bool
	// src is the file DecodeWith read with InPlace, kept for SHA256 (nil
	// otherwise, and for an Asset built in memory).
	src []byte
	// sha is the file's SHA-256: computed by DecodeWith without InPlace,
	// else on the first SHA256 call.
	shaOnce sync.Once
	sha     [32]byte
}

// SHA256 returns the SHA-256 of the file Decode read, or zero for an
// Asset built in memory (and for a nil Asset). It is what a memo of
// responses is bound to, so responses drawn over one asset are never
// reused over another, even one with the same name and size. The hash is
// computed on the first call (a few milliseconds for a 4 MB file), not
// by Decode, since most uses of an asset never need it.
func (a *Asset) SHA256() [32]byte {
	if a == nil {
		return [32]byte{}
	}
	a.shaOnce.Do(func() {
		if a.src != nil {
			a.sha = sha256.Sum256(a.src)
		}
	})
	return a.sha
}

// StoredListsMean returns the P_avg of the lists that a decoded asset's
// file stores (Header.Lists.MeanDistance, written by Marshal as
// ListsMeanDistance of these lists), and false for an asset built in
// memory, whose header need not describe its lists, or a file without it
// (format 2).
func (a *Asset) StoredListsMean() (float64, bool) {
	if a == nil || !a.decoded || a.Header.Lists == nil || a.Header.Lists.MeanDistance <= 0 {
		return 0, false
	}
	return a.Header.Lists.MeanDistance, true
}

// Len returns the vocabulary size N.
func (a *Asset) Len() int { return a.words.len() }

// Word returns the word of id (a string that may share the asset's
// memory; it does not allocate). It panics if id is not in [0, Len()), as
// indexing a slice would.
func (a *Asset) Word(id int) string { return a.words.word(id) }

// WordList returns the vocabulary in id order, in a new slice (the
// strings share the asset's memory). It allocates a string header per
// word: for tools and tests; a mechanism reads Word.
func (a *Asset) WordList() []string {
	out := make([]string, a.Len())
	for i := range out {
		out[i] = a.Word(i)
	}
	return out
}

// SetWords sets the vocabulary to words, in id order, for an Asset built
// in memory (to be written with Marshal, or used directly): words are
// copied into one table. Validate (and Marshal) check them. It returns a,
// so that a literal can be completed in one expression:
// (&wva.Asset{Codes: codes}).SetWords(words).
func (a *Asset) SetWords(words []string) *Asset {
	size := 0
	for _, w := range words {
		size += len(w)
		if size > maxVocabText || size < 0 {
			a.words, a.wordsErr = vocab{}, invalidf("vocabulary", "more than %d bytes of text", maxVocabText)
			return a
		}
	}
	a.words = newVocab(words)
	a.wordsErr = nil
	return a
}

// Lookup returns the id of word, matching bytes exactly (callers normalize
// case and form first), by binary search over the vocabulary in byte
// order: at most ⌈log2 N⌉+1 comparisons whatever the word, no hash to
// degrade and no allocation. If the vocabulary holds a word twice (which
// Validate and Decode reject), either id may be returned.
func (a *Asset) Lookup(word string) (id int, ok bool) { return a.words.lookup(word) }

// Vector returns word id's float vector (a subslice of Floats), or nil if
// the asset has none. It panics if id is out of range.
func (a *Asset) Vector(id int) []float32 {
	d := a.Header.Dim
	if a.Floats == nil || d <= 0 {
		return nil
	}
	return a.Floats[id*d : (id+1)*d : (id+1)*d]
}

// Validate checks the Asset against every rule Decode enforces, so that
// Marshal never writes a file Decode would refuse. Errors wrap ErrInvalid.
func (a *Asset) Validate() error {
	_, err := a.derivedHeader()
	return err
}

// derivedHeader validates a and returns a copy of its header with the
// derived fields filled in.
func (a *Asset) derivedHeader() (Header, error) {
	h := a.Header
	if a.wordsErr != nil {
		return h, a.wordsErr
	}
	n := a.Len()
	if n > maxWords {
		return h, invalidf("vocabulary", "%d words, at most %d", n, maxWords)
	}
	for id := range n {
		if err := checkWord(a.Word(id)); err != "" {
			return h, invalidf("vocabulary", "word %d: %s", id, err)
		}
	}
	if x, y, dup := a.words.duplicate(); dup {
		return h, invalidf("vocabulary", "word %q at ids %d and %d", a.Word(x), x, y)
	}
	if h.Words != 0 && h.Words != n {
		return h, invalidf("header", "words %d, vocabulary has %d", h.Words, n)
	}
	h.Words = n
	if len(a.Codes) != n {
		return h, invalidf("codes", "%d codes for %d words", len(a.Codes), n)
	}
	if h.CodeBits != 0 && h.CodeBits != hamming.Bits {
		return h, invalidf("header", "codeBits %d, codes have %d", h.CodeBits, hamming.Bits)
	}
	h.CodeBits = hamming.Bits
	if h.Dim < 0 || h.Dim > maxDim {
		return h, invalidf("header", "dim %d out of [0, %d]", h.Dim, maxDim)
	}
	if err := a.deriveLists(&h); err != nil {
		return h, err
	}
	if err := a.deriveTEM(&h); err != nil {
		return h, err
	}
	if err := a.deriveCusText(&h); err != nil {
		return h, err
	}
	if err := a.deriveStandIns(&h); err != nil {
		return h, err
	}
	if msg := checkPresets(&h); msg != "" {
		return h, invalidf("header", "%s", msg)
	}
	if msg := checkExcluded(h.Excluded, n); msg != "" {
		return h, invalidf("header", "%s", msg)
	}
	if a.Floats != nil {
		if h.Dim == 0 {
			return h, invalidf("floats", "vectors present but header dim is 0")
		}
		if uint64(len(a.Floats)) != uint64(n)*uint64(h.Dim) {
			return h, invalidf("floats", "%d values for %d words of dim %d", len(a.Floats), n, h.Dim)
		}
		for i, f := range a.Floats {
			if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
				return h, invalidf("floats", "word %d component %d is %v", i/h.Dim, i%h.Dim, f)
			}
		}
	}
	return h, nil
}

func (a *Asset) deriveLists(h *Header) error {
	n := a.Len()
	if len(a.Lists) == 0 {
		if h.Lists != nil && h.Lists.Count != 0 {
			return invalidf("header", "lists count %d, asset has no lists", h.Lists.Count)
		}
		h.Lists = nil
		return nil
	}
	if len(a.Lists) > maxLists {
		return invalidf("lists", "%d lists, at most %d", len(a.Lists), maxLists)
	}
	info := ListsInfo{}
	if h.Lists != nil {
		info = *h.Lists
	}
	if info.Count != 0 && info.Count != len(a.Lists) {
		return invalidf("header", "lists count %d, asset has %d", info.Count, len(a.Lists))
	}
	info.Count = len(a.Lists)
	starts := make([]uint32, 0, len(a.Lists))
	full := make([]Permutation, len(a.Lists)) // with their inverses, for P_avg
	for l, p := range a.Lists {
		if len(p.Order) != n {
			return invalidf("lists", "list %d has %d ids for %d words", l, len(p.Order), n)
		}
		pos, err := invert(p.Order)
		if err != nil {
			return invalidf("lists", "list %d is not a permutation: %v", l, err)
		}
		if p.Pos != nil && !slices.Equal(p.Pos, pos) {
			return invalidf("lists", "list %d: Pos is not the inverse of Order", l)
		}
		full[l] = Permutation{Order: p.Order, Pos: pos}
		if n > 0 {
			starts = append(starts, p.Order[0])
		}
	}
	if info.StartWords != nil && !slices.Equal(info.StartWords, starts) {
		return invalidf("header", "lists startWords %v, lists start at %v", info.StartWords, starts)
	}
	info.StartWords = starts
	mean := ListsMeanDistance(full)
	if info.MeanDistance != 0 && info.MeanDistance != mean {
		return invalidf("header", "lists meanDistance %v, the lists' is %v", info.MeanDistance, mean)
	}
	info.MeanDistance = mean
	h.Lists = &info
	return nil
}

func (a *Asset) deriveTEM(h *Header) error {
	t := a.TEM
	if t == nil {
		if h.TEM != nil && (h.TEM.MaxSteps != 0 || h.TEM.Pairs != 0) {
			return invalidf("header", "tem described but asset has no TEM lists")
		}
		h.TEM = nil
		return nil
	}
	if t.Len() != a.Len() {
		return invalidf("tem", "lists for %d words, vocabulary has %d", t.Len(), a.Len())
	}
	info := TEMInfo{}
	if h.TEM != nil {
		info = *h.TEM
	}
	want := TEMInfo{Metric: info.Metric, Step: t.Step(), MaxSteps: t.MaxSteps(), GammaMax: t.GammaMax(), Pairs: t.Pairs()}
	if (info.Step != 0 && info.Step != want.Step) || (info.MaxSteps != 0 && info.MaxSteps != want.MaxSteps) ||
		(info.GammaMax != 0 && info.GammaMax != want.GammaMax) || (info.Pairs != 0 && info.Pairs != want.Pairs) {
		return invalidf("header", "tem %+v disagrees with the lists %+v", info, want)
	}
	h.TEM = &want
	return nil
}

// checkWord returns why w is not a valid vocabulary entry, or "".
func checkWord(w string) string {
	switch {
	case w == "":
		return "empty"
	case len(w) > maxWordLen:
		return "longer than MaxWordLen bytes"
	case !utf8.ValidString(w):
		return "not valid UTF-8"
	}
	return ""
}
