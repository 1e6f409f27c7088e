package alacarte

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tokens is a GloVe-like tokenizer for induction corpora: it turns running
// text into the tokens GloVe's vocabulary was built from, so that context
// windows match the source's. (The privatizer's own tokenizer,
// internal/tokenize, keeps the text's layout and splits clitics the same
// way; this one only needs the token sequence.)
//
// GloVe 6B was tokenized with the Stanford (PTB-style) tokenizer and
// lower-cased, so:
//   - text is lower-cased, and curly apostrophes (’ ‘) count as ';
//   - a word is a run of letters and digits, joined by a hyphen between
//     two letters or digits ("well-known"), an apostrophe before a letter
//     ("o'neil", "don't", "1990's"), or a '.' or ',' between two digits
//     ("3.5", "1,000");
//   - clitics are split off the end of a word as PTB does: "don't" → "do"
//     "n't", "can't" → "ca" "n't", "won't" → "wo" "n't", and 's 'm 'd 're
//     'll 've ("i'm" → "i" "'m", "could've" → "could" "'ve", "1990's" →
//     "1990" "'s"), at most four from one word;
//   - any other character that is not a space is a token of its own, a run
//     of the same character being one token ("...", "--", "!!!"): these
//     have no vectors but keep their place in context windows, as in
//     GloVe's corpus;
//   - white space only separates tokens (how much, and of which kind, does
//     not matter).
//
// Work is linear in the input: each byte is read a bounded number of times.

// Tokens appends the tokens of s to dst and returns it.
func Tokens(dst []string, s string) []string {
	dst, _ = scanTokens(dst, s)
	return dst
}

// scanTokens is Tokens that also returns the number of rune steps taken,
// so tests can check the work is linear.
func scanTokens(dst []string, s string) ([]string, int) {
	steps := 0
	i := 0
	for i < len(s) {
		r, n := decode(s, i)
		steps++
		switch {
		case unicode.IsSpace(r) || r == utf8.RuneError && n == 1:
			// White space, and bytes that are not UTF-8, separate tokens.
			i += n
		case unicode.IsLetter(r) && abbrevEnd(s, i) > i:
			// "u.s.", "e.g.", "p.m.": one token, as in GloVe's corpus (so
			// "u" keeps the contexts of chat, not of "U.S.").
			end := abbrevEnd(s, i)
			steps += end - i
			dst = append(dst, lower(s[i:end]))
			i = end
		case isAlnum(r):
			end, st := wordEnd(s, i)
			steps += st
			dst = appendWord(dst, lower(s[i:end]))
			i = end
		default:
			end := i + n
			for end < len(s) {
				r2, n2 := decode(s, end)
				if r2 != r {
					break
				}
				steps++
				end += n2
			}
			dst = append(dst, lower(s[i:end]))
			i = end
		}
	}
	return dst, steps
}

// abbrevEnd returns the end of an abbreviation written as single letters
// each followed by a period, at least two of them ("u.s.", "e.g."), or a
// final letter without one ("u.s"), starting at s[i]; i when there is
// none there. It reads each byte at most twice.
func abbrevEnd(s string, i int) int {
	j, pairs := i, 0
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if !unicode.IsLetter(r) || j+n >= len(s) || s[j+n] != '.' {
			break
		}
		j += n + 1
		pairs++
	}
	// "u.s" (no final period): one more single letter ends it.
	if pairs >= 1 && j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if unicode.IsLetter(r) {
			if j+n == len(s) {
				return j + n
			}
			if r2, _ := utf8.DecodeRuneInString(s[j+n:]); !isAlnum(r2) {
				return j + n
			}
		}
	}
	if pairs < 2 {
		return i
	}
	return j
}

// decode returns the rune at s[i], mapping curly apostrophes to '.
func decode(s string, i int) (rune, int) {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == '\u2019' || r == '\u2018' {
		r = '\''
	}
	return r, n
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// wordEnd returns the end of the word starting at s[i] (an alphanumeric
// rune) and the rune steps taken.
func wordEnd(s string, i int) (int, int) {
	steps := 0
	prev, n := decode(s, i)
	i += n
	for i < len(s) {
		r, n := decode(s, i)
		steps++
		if isAlnum(r) {
			prev = r
			i += n
			continue
		}
		if r != '-' && r != '\'' && r != '.' && r != ',' || i+n >= len(s) {
			break
		}
		next, n2 := decode(s, i+n)
		steps++
		ok := false
		switch r {
		case '-':
			ok = isAlnum(prev) && isAlnum(next)
		case '\'':
			ok = unicode.IsLetter(next) // "o'neil", "don't", "1990's"
		default: // '.' or ','
			ok = unicode.IsDigit(prev) && unicode.IsDigit(next)
		}
		if !ok {
			break
		}
		prev = next
		i += n + n2
	}
	return i, steps
}

// clitics are the endings PTB splits off, longest first where one ends
// another.
var clitics = []string{"n't", "'s", "'m", "'d", "'re", "'ll", "'ve"}

// appendWord appends w (lower-cased, apostrophes straight) with its
// trailing clitics split off, in text order.
func appendWord(dst []string, w string) []string {
	var tail [4]string // clitics found, last first; a word has few
	nt := 0
	for nt < len(tail) {
		c := ""
		for _, k := range clitics {
			if len(w) > len(k) && strings.HasSuffix(w, k) {
				c = k
				break
			}
		}
		if c == "" {
			break
		}
		tail[nt] = c
		nt++
		w = w[:len(w)-len(c)]
	}
	dst = append(dst, w)
	for k := nt - 1; k >= 0; k-- {
		dst = append(dst, tail[k])
	}
	return dst
}

// lower lower-cases s and straightens curly apostrophes, returning s
// itself (no copy) when nothing changes, the common case.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 || 'A' <= c && c <= 'Z' {
			return strings.Map(func(r rune) rune {
				if r == '\u2019' || r == '\u2018' {
					return '\''
				}
				return unicode.ToLower(r)
			}, s)
		}
	}
	return s
}
