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

// joinClitic returns what the output out of a clitic piece in adds after
// its host's output. An output that is itself a clitic (it starts with an
// apostrophe, or is "n't") is glued to the host, as the input was ("do" +
// "n't", "he" + "'s"); any other output is a word of its own and follows
// a single space ("did" + " never"). The choice depends only on out.
//
// A vocabulary word (vocab true) is written with the input clitic's
// apostrophe, so a text typed with ’ keeps ’: which apostrophe the input
// used is disclosed, like its capitalization class. The placeholder is
// written as given.
func joinClitic(in, out string, vocab bool) string {
	if vocab && strings.Contains(in, "’") {
		out = strings.ReplaceAll(out, "'", "’")
	}
	if k := tokenize.Key(out); strings.HasPrefix(k, "'") || k == "n't" {
		return out
	}
	return " " + out
}
