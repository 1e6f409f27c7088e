package tokenize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// emailOrURL returns the length of an e-mail address or URL starting at
// sc.pos (whose first rune is r), or 0. The test is deliberately generous:
// anything that looks like one is taken whole, because a false positive
// only replaces more text.
//
// The candidate is the text from sc.pos up to the next whitespace, invalid
// UTF-8 or one of <>"()[]{}, less trailing sentence punctuation (.,;:!?'’).
// It is one if it starts with http://, https://, www., mailto: or ftp://
// (any case), or if its first '@' is neither its first nor its last byte
// and it starts with a letter, digit, '_' or '.'.
//
// The candidate's end and its first '@' come from the chunk cache, so a
// text with no delimiter costs one pass, not one pass per token.
func (sc *Scanner) emailOrURL(r rune) int {
	p := sc.pos
	if p > sc.chunkEnd {
		sc.scanChunk(p)
	}
	end := sc.trimEnd
	if end <= p {
		return 0 // only trailing punctuation is left before the delimiter
	}
	if sc.hasURLPrefix(sc.text[p:end]) {
		return end - p
	}
	if !isAlnum(r) && r != '_' && r != '.' {
		return 0
	}
	if at := sc.nextAt(p, end); at > p && at < end-1 {
		return end - p
	}
	return 0
}

// scanChunk fills the chunk cache for a token starting at p, which lies
// beyond the cached chunk.
func (sc *Scanner) scanChunk(p int) {
	e := p
	for e < len(sc.text) {
		if c := sc.text[e]; c < utf8.RuneSelf { // ASCII: no decoding
			sc.work++
			if asciiClass[c]&cEnd != 0 {
				break
			}
			e++
			continue
		}
		r, sz := sc.decode(sc.text[e:])
		if (r == utf8.RuneError && sz <= 1) || unicode.IsSpace(r) || isDelimiter(r) {
			break
		}
		e += sz
	}
	// The chunk holds valid UTF-8 only, so it decodes backwards safely.
	t := e
	for t > p {
		r, sz := utf8.DecodeLastRuneInString(sc.text[p:t])
		sc.work += sz
		if !isTrailing(r) {
			break
		}
		t -= sz
	}
	sc.chunkEnd, sc.trimEnd, sc.at, sc.atFrom = e, t, -1, p
}

// nextAt returns the position of the first '@' in text[p:end], or end if
// there is none. Token starts only move forward, so a search result stays
// valid until p passes it, and no byte is searched twice.
func (sc *Scanner) nextAt(p, end int) int {
	if sc.at >= p && sc.atFrom <= p {
		return sc.at
	}
	i := strings.IndexByte(sc.text[p:end], '@')
	if i < 0 {
		sc.work += end - p
		sc.at = end
	} else {
		sc.work += i + 1
		sc.at = p + i
	}
	sc.atFrom = p
	return sc.at
}

var urlPrefixes = [...]string{"http://", "https://", "www.", "mailto:", "ftp://"}

// hasURLPrefix reports whether strings.ToLower(cand) starts with a URL
// prefix. ToLower maps rune by rune and a rune that does not lower to ASCII
// cannot match an ASCII prefix, so it lowers only as many leading runes as
// can still match one: at most 8, usually 1.
func (sc *Scanner) hasURLPrefix(cand string) bool {
	if len(cand) > 0 && cand[0] < utf8.RuneSelf {
		// An ASCII first byte lowers to the first letter of a prefix only
		// if it is one of hHwWmMfF (c|0x20 maps no other byte there): the
		// others are answered here, counting the byte the loop would.
		switch cand[0] | 0x20 {
		case 'h', 'w', 'm', 'f':
		default:
			sc.work++
			return false
		}
	}
	var buf [8]byte // the longest prefix, "https://"
	for n := 0; n < len(buf) && len(cand) > 0; {
		r, sz := sc.decode(cand)
		r = unicode.ToLower(r)
		if r >= utf8.RuneSelf {
			return false
		}
		buf[n] = byte(r)
		n++
		cand = cand[sz:]
		live := false
		for _, pre := range urlPrefixes {
			switch {
			case n == len(pre) && string(buf[:n]) == pre:
				return true
			case n < len(pre) && string(buf[:n]) == pre[:n]:
				live = true
			}
		}
		if !live {
			return false
		}
	}
	return false
}

// isDelimiter reports whether r ends an e-mail/URL candidate (besides
// whitespace and invalid UTF-8).
func isDelimiter(r rune) bool {
	switch r {
	case '<', '>', '"', '(', ')', '[', ']', '{', '}':
		return true
	}
	return false
}

// isTrailing reports whether r is sentence punctuation that is not part of
// an e-mail/URL candidate when it ends one.
func isTrailing(r rune) bool {
	switch r {
	case '.', ',', ';', ':', '!', '?', '\'', '’':
		return true
	}
	return false
}
