package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The tokenizer as it was before the Scanner: stateless, simple and
// quadratic on texts without delimiters (each token start rescans to the
// next one). It is kept as the oracle the Scanner must agree with, and as
// the negative control of the work bound. oracleWork counts the bytes its
// e-mail/URL test examines (tests using it do not run in parallel).
var oracleWork int

func oracleTokenize(s string) []Token {
	var ts []Token
	for len(s) > 0 {
		n, k := oracleNext(s)
		ts = append(ts, Token{Text: s[:n], Kind: k})
		s = s[n:]
	}
	return ts
}

func oracleNext(s string) (int, Kind) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size <= 1:
		return size, Other
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
	if n := oracleEmailOrURL(s); n > 0 {
		return n, Other
	}
	if isAlnum(r) {
		return oracleAlnumRun(s)
	}
	if unicode.IsPunct(r) || r < utf8.RuneSelf && unicode.IsSymbol(r) {
		return size, Punct
	}
	return size, Other
}

func oracleAlnumRun(s string) (int, Kind) {
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

func oracleEmailOrURL(s string) int {
	end := 0
	for end < len(s) {
		r, sz := utf8.DecodeRuneInString(s[end:])
		oracleWork += sz
		if (r == utf8.RuneError && sz <= 1) || unicode.IsSpace(r) || strings.ContainsRune("<>\"()[]{}", r) {
			break
		}
		end += sz
	}
	cand := s[:end]
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
