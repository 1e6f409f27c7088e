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
	for _, r := range w {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		up, low := unicode.IsUpper(r) || unicode.IsTitle(r), unicode.IsLower(r)
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
