package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// ASCII fast paths. Most text is ASCII, and the unicode package answers
// an ASCII rune through a function call and a range-table switch; the
// scanner asks several such questions per byte. asciiClass answers them
// with one table load. The table is built from the unicode package itself
// (init), so it cannot disagree with it (TestASCIIClass checks every
// byte anyway), and a rune at or above utf8.RuneSelf always takes the
// unicode path.

// The classes of an ASCII byte.
const (
	cSpace  uint8 = 1 << iota // unicode.IsSpace
	cLetter                   // unicode.IsLetter
	cUpper                    // unicode.IsUpper || unicode.IsTitle
	cLower                    // unicode.IsLower
	cDigit                    // unicode.IsDigit
	cPunct                    // unicode.IsPunct || unicode.IsSymbol: a layout mark
	cEnd                      // ends an e-mail/URL chunk: space or isDelimiter
)

var asciiClass [utf8.RuneSelf]uint8

func init() {
	for b := range rune(utf8.RuneSelf) {
		var c uint8
		set := func(ok bool, bit uint8) {
			if ok {
				c |= bit
			}
		}
		set(unicode.IsSpace(b), cSpace)
		set(unicode.IsLetter(b), cLetter)
		set(unicode.IsUpper(b) || unicode.IsTitle(b), cUpper)
		set(unicode.IsLower(b), cLower)
		set(unicode.IsDigit(b), cDigit)
		set(unicode.IsPunct(b) || unicode.IsSymbol(b), cPunct)
		set(unicode.IsSpace(b) || isDelimiter(b), cEnd)
		asciiClass[b] = c
	}
}
