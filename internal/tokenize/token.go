package tokenize

// Kind classifies a token.
type Kind uint8

const (
	Space  Kind = iota // a run of whitespace (layout)
	Punct              // one punctuation character or ASCII symbol (layout unless privatized)
	Word               // letters, with single inner apostrophes or hyphens: "rock'n'roll", "well-known"; or a piece of one (Part)
	Number             // digits, with single inner '.' or ',' between digits: "3.14", "1,000"
	Other              // e-mail, URL, letters mixed with digits, emoji, invalid UTF-8, ...
)

var kindNames = [...]string{"space", "punct", "word", "number", "other"}

// String returns the kind's lower-case name ("space", "punct", "word",
// "number", "other"), or "kind?" for a value outside the constants.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Content reports whether a token of this kind carries content that must be
// privatized (never passed through): words, numbers and everything else
// that is not whitespace or a single punctuation/symbol character.
func (k Kind) Content() bool { return k >= Word }

// Part says whether a token is a piece of a longer word.
type Part uint8

const (
	// Single: the token is not a piece of a word (every Space, Punct,
	// Number and Other token, and every Word without clitics).
	Single Part = iota
	// Host: the first piece of a Word with clitics, the word they lean on
	// ("do" of "don't", "I" of "I'm"). One or more Clitic tokens follow it.
	Host
	// Clitic: a clitic cut off the end of a word ("n't", "'s", "’m", "'RE"):
	// it belongs to the Host before it (directly, or through other clitics).
	Clitic
)

// Token is a slice of the input.
type Token struct {
	// Text is the token's bytes: a non-empty substring of the input,
	// sharing its memory.
	Text string
	// Kind classifies Text. Host and Clitic pieces are Word.
	Kind Kind
	// Part says whether Text is a whole token or a piece of a word.
	Part Part
	// Whole is the whole word a Host or Clitic piece was cut from ("don't"
	// for both "do" and "n't"), and Text itself for a Single token: a
	// substring of the input too. A word's properties, such as its
	// capitalization class, are properties of Whole; computing them costs
	// Whole's length, so compute them once per word (at its Host), not once
	// per piece.
	Whole string
}

// Tokenize splits s into tokens. Concatenating their Text gives s.
func Tokenize(s string) []Token {
	return AppendTokens(nil, s)
}

// AppendTokens appends the tokens of s to dst (reusing its storage).
func AppendTokens(dst []Token, s string) []Token {
	var sc Scanner
	sc.Reset(s)
	for {
		t, ok := sc.Next()
		if !ok {
			return dst
		}
		dst = append(dst, t)
	}
}
