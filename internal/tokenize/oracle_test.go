package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The tokenizer as it was before the Scanner: stateless, simple and
// quadratic on texts without delimiters (each token start rescans to the
// next one), followed by a separate pass that cuts clitics off its Word
// tokens with plain string functions. It is kept as the oracle the Scanner
// must agree with, and as the negative control of the work bound.
// oracleWork counts the bytes its e-mail/URL test examines (tests using it
// do not run in parallel).
var oracleWork int

func oracleTokenize(s string) []Token {
	var ts []Token
	for len(s) > 0 {
		n, k := oracleNext(s)
		if k != Word {
			ts = append(ts, Token{Text: s[:n], Kind: k, Whole: s[:n]})
		} else {
			ts = append(ts, oracleSplit(s[:n])...)
		}
		s = s[n:]
	}
	return ts
}

// oracleClitics are the clitic forms, with both apostrophes.
var oracleClitics = []string{"n't", "'s", "'m", "'re", "'ll", "'ve", "'d", "n’t", "’s", "’m", "’re", "’ll", "’ve", "’d"}

// oracleSplit cuts clitic forms off the end of word w while the rest is
// non-empty and does not end in an apostrophe or hyphen.
func oracleSplit(w string) []Token {
	host := w
	var clitics []string
	for {
		low := strings.Map(func(r rune) rune {
			if r >= 'A' && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return r
		}, host)
		cut := false
		for _, c := range oracleClitics {
			if !strings.HasSuffix(low, c) {
				continue
			}
			rest := host[:len(host)-len(c)]
			if rest == "" || strings.HasSuffix(rest, "'") || strings.HasSuffix(rest, "’") || strings.HasSuffix(rest, "-") {
				break
			}
			clitics = append([]string{host[len(rest):]}, clitics...)
			host, cut = rest, true
			break
		}
		if !cut {
			break
		}
	}
	if clitics == nil {
		return []Token{{Text: w, Kind: Word, Whole: w}}
	}
	ts := []Token{{Text: host, Kind: Word, Part: Host, Whole: w}}
	for _, c := range clitics {
		ts = append(ts, Token{Text: c, Kind: Word, Part: Clitic, Whole: w})
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
