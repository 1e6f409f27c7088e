package binarize

// PlainWord reports whether w belongs to WordVeil's default vocabulary:
// a lowercase ASCII word, possibly joined by single apostrophes or hyphens
// (^[a-z]+(['-][a-z]+)*$: "cat", "don't", "well-known"), or a number
// written with digits only (^[0-9]+$). Everything else — punctuation,
// capitals, accented letters, mixed letters and digits, leading or
// trailing or doubled joiners — is dropped. The filter keeps the words a
// privatized text can sensibly be rewritten into; tokens outside it pass
// through the privatizer's own tokenization rules instead.
//
// It is written by hand rather than as a regexp because the asset builder
// calls it once per word of a 341k-word file.
func PlainWord(w string) bool {
	if w == "" {
		return false
	}
	if isDigit(w[0]) {
		for i := 1; i < len(w); i++ {
			if !isDigit(w[i]) {
				return false
			}
		}
		return true
	}
	// Letters, with each joiner between two letters.
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'a' && c <= 'z':
		case c == '\'' || c == '-':
			if i == 0 || i == len(w)-1 || !isLower(w[i-1]) || !isLower(w[i+1]) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
