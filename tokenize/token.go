package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

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
	Text string
	Kind Kind
}

// Tokenize splits s into tokens. Concatenating their Text gives s.
func Tokenize(s string) []Token {
	return AppendTokens(nil, s)
}

// Next returns the first token of s (s non-empty), so callers can stream
// tokens without building a slice.
func Next(s string) Token {
	n, k := next(s)
	return Token{Text: s[:n], Kind: k}
}

// AppendTokens appends the tokens of s to dst (reusing its storage).
func AppendTokens(dst []Token, s string) []Token {
	for len(s) > 0 {
		n, k := next(s)
		dst = append(dst, Token{Text: s[:n], Kind: k})
		s = s[n:]
	}
	return dst
}

// next returns the length and kind of the token at the start of s.
func next(s string) (int, Kind) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size <= 1:
		return size, Other // invalid UTF-8: content, never layout
	case unicode.IsSpace(r):
		n := size
		for n < len(s) {
			r, sz := utf8.DecodeRuneInString(s[n:])
			if (r == utf8.RuneError && sz <= 1) || !unicode.IsSpace(r) {
				break
			}
			n += sz
		}
		return n, Space
	}
	if n := emailOrURL(s); n > 0 {
		return n, Other
	}
	if isAlnum(r) {
		return alnumRun(s)
	}
	if unicode.IsPunct(r) || r < utf8.RuneSelf && unicode.IsSymbol(r) {
		return size, Punct
	}
	// Emoji and other non-ASCII symbols carry meaning, so they are content;
	// so are controls, lone marks, private-use characters, ...
	return size, Other
}

func isAlnum(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// alnumRun scans letters and digits with single inner joiners: apostrophes
// and hyphens between letters, '.' and ',' between digits. A run with both
// letters and digits is Other ("abc123", "covid19", "3rd").
func alnumRun(s string) (int, Kind) {
	n, letters, digits := 0, false, false
	for n < len(s) {
		r, sz := utf8.DecodeRuneInString(s[n:])
		switch {
		case r == utf8.RuneError && sz <= 1:
			return n, classify(letters, digits)
		case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r):
			letters = true
		case unicode.IsDigit(r):
			digits = true
		case isJoiner(r):
			// A joiner stays inside the token only between two characters
			// of the right sort: letters around ' and -, digits around . and ,.
			prev, _ := utf8.DecodeLastRuneInString(s[:n])
			nx, _ := utf8.DecodeRuneInString(s[n+sz:])
			if n+sz < len(s) && joins(r, prev, nx) {
				n += sz
				continue
			}
			return n, classify(letters, digits)
		default:
			return n, classify(letters, digits)
		}
		n += sz
	}
	return n, classify(letters, digits)
}

func isJoiner(r rune) bool {
	return r == '\'' || r == '’' || r == '-' || r == '.' || r == ','
}

func joins(j, prev, next rune) bool {
	switch j {
	case '\'', '’', '-':
		return unicode.IsLetter(prev) && unicode.IsLetter(next)
	default: // '.', ','
		return unicode.IsDigit(prev) && unicode.IsDigit(next)
	}
}

func classify(letters, digits bool) Kind {
	switch {
	case letters && digits:
		return Other
	case digits:
		return Number
	}
	return Word
}

// emailOrURL returns the length of an e-mail address or URL at the start of
// s, or 0. The test is deliberately generous: anything that looks like one
// is taken whole, because a false positive only replaces more text.
func emailOrURL(s string) int {
	end := 0
	for end < len(s) {
		r, sz := utf8.DecodeRuneInString(s[end:])
		if (r == utf8.RuneError && sz <= 1) || unicode.IsSpace(r) || strings.ContainsRune("<>\"()[]{}", r) {
			break
		}
		end += sz
	}
	cand := s[:end]
	// Trailing sentence punctuation is not part of it.
	cand = strings.TrimRightFunc(cand, func(r rune) bool { return strings.ContainsRune(".,;:!?'’", r) })
	if cand == "" {
		return 0
	}
	lower := strings.ToLower(cand)
	switch {
	case strings.HasPrefix(lower, "http://"), strings.HasPrefix(lower, "https://"),
		strings.HasPrefix(lower, "www."), strings.HasPrefix(lower, "mailto:"), strings.HasPrefix(lower, "ftp://"):
		return len(cand)
	}
	if at := strings.IndexByte(cand, '@'); at > 0 && at < len(cand)-1 {
		r, _ := utf8.DecodeRuneInString(cand)
		if isAlnum(r) || r == '_' || r == '.' {
			return len(cand)
		}
	}
	return 0
}
