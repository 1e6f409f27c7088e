package privatize

import (
	"strings"

	"github.com/wordveil/wordveil/internal/tokenize"
)

// How a word cut into pieces is written back. The tokenizer cuts clitics
// off words as GloVe's tokenizer does ("don't" is "do" "n't", "I'm" "I"
// "'m"); each piece is privatized on its own (fresh noise, or the OOV
// policy), and the outputs are joined so that they read as text again.
// Everything here depends on the input only through what the tokens
// already disclose: the word's capitalization class and its clitics'
// apostrophe character.

// pieceCase returns the capitalization class in which tk's replacement is
// written. A word has one class, that of the whole word, computed at its
// first piece and kept in *word for its clitics: the host is written in
// it, and each clitic in upper case when the word is UPPER ("DON'T"),
// lower case otherwise ("Don't" → "Do" "n't"). So a word cut into pieces
// discloses one class, like a word that is not.
func pieceCase(tk tokenize.Token, word *tokenize.Case) tokenize.Case {
	switch tk.Part {
	case tokenize.Clitic:
		if *word == tokenize.Upper {
			return tokenize.Upper
		}
		return tokenize.Lower
	case tokenize.Host:
		*word = tokenize.CaseOf(tk.Whole) // once per word: Whole may be long
		return *word
	}
	*word = tokenize.CaseOf(tk.Text)
	return *word
}

// Where a clitic output cannot be written as a clitic, it is written as
// its full word. A host or a word of its own whose output is a clitic
// ("I" → "'m") is written "am", not "'m"; a clitic whose output is "n't"
// or "'m" is glued only to a host output that takes it ("did" + "n't",
// "i" + "'m"), and written as the full word after a space otherwise
// ("am" + " not", never "amn't"). These are choices made on the outputs
// and on what the layout already discloses (which piece is a clitic),
// never on the input words: post-processing, free of privacy cost. The
// full word is used only when the mechanism may release it
// (Privatizer.fullWords); otherwise the clitic is written as before.
var cliticFull = [...]struct{ clitic, full string }{
	{"n't", "not"}, {"'s", "is"}, {"'m", "am"}, {"'re", "are"},
	{"'ll", "will"}, {"'ve", "have"}, {"'d", "would"},
}

// takesNot lists the words "n't" is written onto: the auxiliaries, and
// GloVe's hosts "ca", "wo", "sha" and "ai" of can't, won't, shan't, ain't.
var takesNot = map[string]bool{
	"do": true, "does": true, "did": true, "is": true, "are": true, "was": true,
	"were": true, "has": true, "have": true, "had": true, "could": true,
	"would": true, "should": true, "must": true, "need": true, "might": true,
	"dare": true, "ought": true, "ca": true, "wo": true, "sha": true, "ai": true,
}

// cliticIndex returns the index in cliticFull of the clitic token k (a
// lower-case vocabulary word), or -1.
func cliticIndex(k string) int {
	for i, c := range cliticFull {
		if c.clitic == k {
			return i
		}
	}
	return -1
}

// glues reports whether the clitic output c (a clitic token) is written
// onto prev, the lower-case output of the piece before it.
func glues(prev, c string) bool {
	switch c {
	case "n't":
		return takesNot[prev]
	case "'m":
		return prev == "i"
	}
	return prev != ""
}

// joinClitic returns what the output of a clitic piece in adds after its
// host's output: out glued on when glued is true (the output is itself a
// clitic that takes the host's output), else out as a word of its own
// after a single space ("did" + " never"). The choice depends only on the
// outputs.
//
// A vocabulary word (vocab true) is written with the input clitic's
// apostrophe, so a text typed with ’ keeps ’: which apostrophe the input
// used is disclosed, like its capitalization class. The placeholder is
// written as given.
func joinClitic(in, out string, vocab, glued bool) string {
	if vocab && strings.Contains(in, "’") {
		out = strings.ReplaceAll(out, "'", "’")
	}
	if glued {
		return out
	}
	return " " + out
}

// pieceOutput returns the lower-case word a piece of part part writes for
// the vocabulary word out, and for a clitic piece whether it is glued to
// prev (the lower-case word the piece before it wrote): a clitic output
// stays a clitic where it glues, and becomes its full word (when full
// has it) where it does not.
func pieceOutput(part tokenize.Part, out, prev string, full *[len(cliticFull)]string) (word string, glued bool) {
	i := cliticIndex(out)
	switch {
	case i < 0:
		// Not a clitic token: a word of its own, unless it starts with
		// an apostrophe, as a clitic does.
		return out, part == tokenize.Clitic && strings.HasPrefix(out, "'")
	case part == tokenize.Clitic && glues(prev, out):
		return out, true
	case full[i] != "":
		return full[i], false
	}
	// The full word may not be released: the clitic as it is, glued to a
	// clitic piece's host as typed, standing alone elsewhere.
	return out, part == tokenize.Clitic
}

// A hyphenated word ("well-known", "master-maid", "mother-in-law") is
// privatized segment by segment, each segment a word of its own (fresh
// noise, its own capitalization class, its own lookup), and written back
// with the input's hyphens between the outputs. Always, whether or not
// the whole word is a vocabulary word: the output's shape then depends on
// the input's hyphens only, never on what the vocabulary holds, and a
// hyphen between letters is disclosed like any other punctuation. Rare
// compounds are the words a vocabulary lacks most often; their parts
// rarely are.

// eachSegment calls fn with each hyphen-separated segment of tk, in
// order, as a Single Word token of its own (Whole is the segment), and
// says whether it is the last. A token without a hyphen, or not a Word,
// is its own single segment, passed as it is. The tokenizer keeps a
// hyphen inside a Word only between two letters, so no segment is empty.
func eachSegment(tk tokenize.Token, fn func(seg tokenize.Token, last bool)) {
	if tk.Kind != tokenize.Word {
		fn(tk, true)
		return
	}
	s := tk.Text
	for {
		i := strings.IndexByte(s, '-')
		if i < 0 {
			if len(s) == len(tk.Text) {
				fn(tk, true)
			} else {
				fn(tokenize.Token{Text: s, Kind: tokenize.Word, Part: tokenize.Single, Whole: s}, true)
			}
			return
		}
		fn(tokenize.Token{Text: s[:i], Kind: tokenize.Word, Part: tokenize.Single, Whole: s[:i]}, false)
		s = s[i+1:]
	}
}

// segmentCase is the capitalization class a segment of tk is written in:
// tk's own (pieceCase) when tk is not cut at hyphens, else the segment's,
// as for a word of its own.
func segmentCase(tk, seg tokenize.Token, c tokenize.Case) tokenize.Case {
	if len(seg.Text) == len(tk.Text) {
		return c
	}
	return tokenize.CaseOf(seg.Text)
}
