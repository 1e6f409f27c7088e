package tokenize

// Cut returns where to cut s so that neither side is much longer than
// limit while tokenizing the two sides apart gives exactly the tokens of
// s: the first token boundary at or after limit bytes that is not
// between the pieces of a word with clitics, or len(s). A caller holding
// a long text can then privatize it in parts of about limit bytes (a
// part is longer only when one token is).
//
// Why a token boundary is enough: the Scanner returns the tokens from a
// position as a function of the text from there on (no rule looks back
// before the token it is reading, and the e-mail/URL chunk cache is
// recomputed from the position), so s[c:] scans as the rest of s does;
// and s[:c] ends where a token of s ends. Inside a word with clitics the
// pieces share the word (Whole), so no cut falls there. Cut scans s up
// to the cut, so cutting a text into parts costs one pass over it.
func Cut(s string, limit int) int {
	if limit >= len(s) {
		return len(s)
	}
	var sc Scanner
	sc.Reset(s)
	for {
		if _, ok := sc.Next(); !ok {
			return len(s)
		}
		if sc.pos >= limit && sc.pos >= sc.wordEnd {
			return sc.pos
		}
	}
}
