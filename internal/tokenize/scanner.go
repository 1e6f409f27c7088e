package tokenize

import (
	"unicode"
	"unicode/utf8"
)

// Scanner streams the tokens of a text without building a slice. It does
// amortized constant work per input byte whatever the text looks like: the
// e-mail/URL test, which looks ahead to the next delimiter, is answered from
// facts computed once per run of non-delimiters (see chunk), not by
// rescanning that run from every token start.
//
// The zero value holds no text; call Reset before Next. A Scanner is not
// safe for concurrent use.
type Scanner struct {
	text string
	pos  int // start of the next token

	// The chunk cache. A chunk is a maximal run of characters that can
	// belong to an e-mail address or URL (no whitespace, invalid UTF-8 or
	// bracket/quote delimiter). Every token start inside one chunk sees the
	// same candidate end, so the chunk is scanned once.
	chunkEnd int // end of the chunk holding pos; the cache is valid while pos <= chunkEnd
	trimEnd  int // chunkEnd less the trailing sentence punctuation
	at       int // first '@' at or after atFrom before trimEnd (trimEnd if none); -1: not searched yet
	atFrom   int // where the '@' search that produced at started

	// The word being cut into pieces (clitic.go): text[wordStart:wordEnd]
	// is a Word with clitics whose pieces from pos to wordEnd are still to
	// be returned. Empty (wordEnd <= pos) otherwise.
	wordStart, wordEnd int

	work int // bytes examined, so tests can bound the work per byte without timing
}

// Reset makes the scanner return the tokens of text from the start.
func (sc *Scanner) Reset(text string) {
	*sc = Scanner{text: text, chunkEnd: -1, at: -1}
}

// Next returns the next token, or false at the end of the text.
func (sc *Scanner) Next() (Token, bool) {
	if sc.pos >= len(sc.text) {
		return Token{}, false
	}
	if sc.pos < sc.wordEnd {
		return sc.nextClitic(), true
	}
	n, k := sc.next()
	t := Token{Text: sc.text[sc.pos : sc.pos+n], Kind: k}
	t.Whole = t.Text
	if k == Word {
		h, examined := hostLen(t.Text)
		sc.work += examined
		if h < n {
			sc.wordStart, sc.wordEnd = sc.pos, sc.pos+n
			t.Text, t.Part = t.Text[:h], Host
			n = h
		}
	}
	sc.pos += n
	return t, true
}

// nextClitic returns the next clitic of the word being cut. hostLen cut
// the word into clitic forms from its end, and the forms differ in their
// first letter, so reading them from the front finds the same pieces.
func (sc *Scanner) nextClitic() Token {
	rest := sc.text[sc.pos:sc.wordEnd]
	n := cliticPrefix(rest)
	sc.work += n
	if n == 0 {
		// Unreachable while cliticPrefix and cliticSuffix agree (the tests
		// check that they do); if they ever disagreed, the rest of the
		// word stays one content token rather than vanishing.
		n = len(rest)
	}
	t := Token{Text: rest[:n], Kind: Word, Part: Clitic, Whole: sc.text[sc.wordStart:sc.wordEnd]}
	sc.pos += n
	return t
}

// next returns the length (at least 1) and kind of the token at sc.pos.
func (sc *Scanner) next() (int, Kind) {
	s := sc.text[sc.pos:]
	r, size := sc.decode(s)
	switch {
	case r == utf8.RuneError && size <= 1:
		return size, Other // invalid UTF-8: content, never layout
	case isSpace(r):
		n := size
		for n < len(s) {
			if c := s[n]; c < utf8.RuneSelf { // ASCII: no decoding
				if asciiClass[c]&cSpace == 0 {
					sc.work++ // what decode counts for the byte
					break
				}
				sc.work++
				n++
				continue
			}
			r, sz := sc.decode(s[n:])
			if (r == utf8.RuneError && sz <= 1) || !unicode.IsSpace(r) {
				break
			}
			n += sz
		}
		return n, Space
	}
	if n := sc.emailOrURL(r); n > 0 {
		return n, Other
	}
	if isAlnum(r) {
		return sc.alnumRun(s)
	}
	if r < utf8.RuneSelf {
		if asciiClass[r]&cPunct != 0 {
			return size, Punct
		}
		return size, Other
	}
	if unicode.IsPunct(r) {
		return size, Punct
	}
	// Emoji and other non-ASCII symbols carry meaning, so they are content;
	// so are controls, lone marks, private-use characters, ...
	return size, Other
}

// decode decodes the first rune of s, counting the bytes it examines.
func (sc *Scanner) decode(s string) (rune, int) {
	if len(s) > 0 && s[0] < utf8.RuneSelf {
		sc.work++
		return rune(s[0]), 1
	}
	r, sz := utf8.DecodeRuneInString(s)
	sc.work += sz
	return r, sz
}

func isAlnum(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiClass[r]&(cLetter|cDigit) != 0
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// alnumRun scans letters and digits with single inner joiners: apostrophes
// and hyphens between letters, '.' and ',' between digits. A run with both
// letters and digits is Other ("abc123", "covid19", "3rd"). It reads only
// the run and the rune after it, so its cost is paid by the token it makes.
func (sc *Scanner) alnumRun(s string) (int, Kind) {
	n, letters, digits := 0, false, false
	for n < len(s) {
		if c := s[n]; c < utf8.RuneSelf { // an ASCII letter or digit: no decoding
			switch cl := asciiClass[c]; {
			case cl&cLetter != 0:
				letters = true
				sc.work++
				n++
				continue
			case cl&cDigit != 0:
				digits = true
				sc.work++
				n++
				continue
			}
		}
		r, sz := sc.decode(s[n:])
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
			prev, psz := utf8.DecodeLastRuneInString(s[:n])
			nx, nsz := utf8.DecodeRuneInString(s[n+sz:])
			sc.work += psz + nsz
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

// isSpace is unicode.IsSpace, from the table for ASCII.
func isSpace(r rune) bool {
	if uint32(r) < utf8.RuneSelf {
		return asciiClass[r]&cSpace != 0
	}
	return unicode.IsSpace(r)
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
