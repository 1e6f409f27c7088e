package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Case is a word's capitalization class, the only case information the
// privatizer carries from an input word to its replacement.
type Case uint8

const (
	Lower Case = iota // "privacy", and anything without letters
	Title             // "Privacy"
	Upper             // "PRIVACY" (two or more letters, all upper)
	Mixed             // "iPhone", "McDonald": restored as Lower, since the
	// pattern of one word means nothing on another
)

// CaseOf returns the capitalization class of w.
func CaseOf(w string) Case {
	var first = true
	var firstUpper, restUpper, restLower bool
	letters := 0
	for i := 0; i < len(w); {
		var up, low bool
		if c := w[i]; c < utf8.RuneSelf { // ASCII: the classes from the table
			i++
			cl := asciiClass[c]
			if cl&cLetter == 0 {
				continue
			}
			up, low = cl&cUpper != 0, cl&cLower != 0
		} else {
			r, n := utf8.DecodeRuneInString(w[i:]) // invalid UTF-8: RuneError, no letter
			i += n
			if !unicode.IsLetter(r) {
				continue
			}
			up, low = unicode.IsUpper(r) || unicode.IsTitle(r), unicode.IsLower(r)
		}
		letters++
		if first {
			firstUpper, first = up, false
			continue
		}
		restUpper = restUpper || up
		restLower = restLower || low
	}
	switch {
	case letters == 0 || !firstUpper && !restUpper:
		return Lower
	case firstUpper && !restUpper:
		return Title
	case firstUpper && !restLower && letters > 1:
		return Upper
	}
	return Mixed
}

// Key is the lookup form of a word: lower case (Unicode), with the
// typographic apostrophe folded to ASCII so "don’t" finds "don't".
func Key(w string) string {
	return strings.ReplaceAll(strings.ToLower(w), "’", "'")
}

// IsKey reports whether Key(w) is w itself, checking bytes only: w is
// ASCII without upper-case letters (the typographic apostrophe is not
// ASCII).
func IsKey(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// MaxKeyShrink bounds how many times shorter Key(w) can be than w: lower
// casing maps a 3-byte rune to a 1-byte one at most (KELVIN SIGN to "k"),
// and the apostrophe fold ’ (3 bytes) to ' (1 byte). A token longer than
// MaxKeyShrink·L bytes has no key of L bytes or fewer.
const MaxKeyShrink = 3

// AppendKey appends Key(w) to dst, rune by rune, so that a caller can
// form the key in a stack buffer instead of allocating two strings per
// word (strings.ToLower, then the apostrophe fold).
func AppendKey(dst []byte, w string) []byte {
	for _, r := range w {
		if r == '’' {
			r = '\''
		} else {
			r = unicode.ToLower(r)
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// Apply writes w (a vocabulary word, lower case) in capitalization class c.
func Apply(c Case, w string) string {
	switch c {
	case Title:
		r, n := utf8.DecodeRuneInString(w)
		return string(unicode.ToTitle(r)) + w[n:]
	case Upper:
		return strings.ToUpper(w)
	}
	return w
}
