package typedtext

import (
	"strings"
	"unicode"
)

// simpleWords is the plain word split of this package: maximal runs of
// letters, digits and apostrophes (ASCII ' and U+2019), lower-cased, with
// leading and trailing apostrophes trimmed. It is what the disjointness
// filter compares and what the report's OOV numbers use; the privatizer's
// own tokenizer differs (it splits clitics, for one).
func simpleWords(s string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := strings.Trim(s[start:end], "'\u2019")
		if w != "" {
			out = append(out, strings.ToLower(strings.ReplaceAll(w, "\u2019", "'")))
		}
		start = -1
	}
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '\u2019' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(s))
	return out
}
