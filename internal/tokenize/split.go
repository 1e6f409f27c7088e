package tokenize

// Split cuts s into parts, each at least limit bytes long except the
// last, and longer only as far as the end of the token that reaches the
// limit, such that tokenizing the parts one after the other gives exactly
// the tokens of s: every cut is at a token boundary that is not between
// the pieces of a word with clitics. A caller holding a long text can
// then privatize it in parts of about limit bytes. Parts are substrings
// of s; a text within the limit is its own single part (none when empty).
//
// Why a token boundary is enough: the Scanner returns the tokens from a
// position as a function of the text from there on (no rule looks back
// before the token it is reading, and the e-mail/URL chunk facts are
// recomputed from the position), so s[c:] scans as the rest of s does;
// and s[:c] ends where a token of s ends. Inside a word with clitics the
// pieces share the word (Whole), so no cut falls there.
//
// Split scans s once with one Scanner (its chunk cache spans the cuts),
// so it costs one pass over s whatever the number of parts.
func Split(s string, limit int) []string {
	parts, _ := split(s, limit)
	return parts
}

// split is Split, also returning the bytes its Scanner examined.
func split(s string, limit int) ([]string, int) {
	if len(s) <= limit || limit < 1 {
		if s == "" {
			return nil, 0
		}
		return []string{s}, 0
	}
	var parts []string
	var sc Scanner
	sc.Reset(s)
	start := 0
	for {
		if _, ok := sc.Next(); !ok {
			break
		}
		if sc.pos-start >= limit && sc.pos >= sc.wordEnd && sc.pos < len(s) {
			parts = append(parts, s[start:sc.pos])
			start = sc.pos
		}
	}
	return append(parts, s[start:]), sc.work
}
