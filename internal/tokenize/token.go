package tokenize

// Kind classifies a token.
type Kind uint8

const (
	Space  Kind = iota // a run of whitespace (layout)
	Punct              // one punctuation character or ASCII symbol (layout unless privatized)
	Word               // letters, with single inner apostrophes or hyphens: "don't", "well-known"
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

// Token is a slice of the input.
type Token struct {
	// Text is the token's bytes: a non-empty substring of the input,
	// sharing its memory.
	Text string
	// Kind classifies Text.
	Kind Kind
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
