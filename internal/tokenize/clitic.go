package tokenize

// Clitics. GloVe's corpus was tokenized in the Penn Treebank style, which
// cuts English clitics off the word they lean on (their host): "don't" is
// "do" "n't", "can't" "ca" "n't", "I'm" "I" "'m", "John's" "John" "'s".
// The scanner cuts Word tokens the same way, so that each piece can be
// looked up in a vocabulary built from that corpus.
//
// The clitic forms are n't, 's, 'm, 're, 'll, 've and 'd, matched with
// ASCII letters in any case and either apostrophe (' or ’). They are cut
// only off the END of a Word token, repeatedly ("wouldn't've" is "would"
// "n't" "'ve"), and only while a host is left that ends in a letter or
// mark: "n't" alone is a whole word, and so is "rock'n'roll" (its
// apostrophes end no clitic form).
//
// Every function here reads only the bytes of the forms it matches, so a
// word of any length costs a constant per clitic plus a constant.

// cliticLetters reports whether s, in ASCII lower case, is the letter part
// of an apostrophe form: s, m, d, re, ll or ve.
func cliticLetters(s string) bool {
	switch len(s) {
	case 1:
		c := lowerASCII(s[0])
		return c == 's' || c == 'm' || c == 'd'
	case 2:
		a, b := lowerASCII(s[0]), lowerASCII(s[1])
		return a == 'r' && b == 'e' || a == 'l' && b == 'l' || a == 'v' && b == 'e'
	}
	return false
}

func lowerASCII(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

// apostropheEnding returns the length in bytes of the apostrophe that ends
// s (1 for ', 3 for ’), or 0.
func apostropheEnding(s string) int {
	n := len(s)
	switch {
	case n >= 1 && s[n-1] == '\'':
		return 1
	case n >= 3 && s[n-3:] == "’":
		return 3
	}
	return 0
}

// apostropheStarting returns the length in bytes of the apostrophe that
// starts s, or 0.
func apostropheStarting(s string) int {
	switch {
	case len(s) >= 1 && s[0] == '\'':
		return 1
	case len(s) >= 3 && s[:3] == "’":
		return 3
	}
	return 0
}

// cliticSuffix returns the length of the clitic form that ends s, or 0.
func cliticSuffix(s string) int {
	n := len(s)
	if n >= 3 && lowerASCII(s[n-1]) == 't' {
		if a := apostropheEnding(s[:n-1]); a > 0 && n-1-a >= 1 && lowerASCII(s[n-2-a]) == 'n' {
			return a + 2 // n't
		}
	}
	for k := 1; k <= 2 && k < n; k++ {
		if cliticLetters(s[n-k:]) {
			if a := apostropheEnding(s[:n-k]); a > 0 {
				return a + k
			}
		}
	}
	return 0
}

// cliticPrefix returns the length of the clitic form that starts s, or 0.
// The forms differ in their first letter, so at most one matches.
func cliticPrefix(s string) int {
	if len(s) >= 1 && lowerASCII(s[0]) == 'n' {
		if a := apostropheStarting(s[1:]); a > 0 && len(s) > 1+a && lowerASCII(s[1+a]) == 't' {
			return a + 2
		}
		return 0
	}
	a := apostropheStarting(s)
	if a == 0 {
		return 0
	}
	for k := 2; k >= 1; k-- {
		if len(s) >= a+k && cliticLetters(s[a:a+k]) {
			return a + k
		}
	}
	return 0
}

// hostLen returns the length of w's host: w less the clitics cut off its
// end. It is len(w) when w has none. It examines at most 6 bytes per
// clitic, plus 6.
func hostLen(w string) (host, examined int) {
	h := len(w)
	for {
		examined += min(h, 6)
		c := cliticSuffix(w[:h])
		if c == 0 || c == h || endsWithJoiner(w[:h-c]) {
			return h, examined
		}
		h -= c
	}
}

// endsWithJoiner reports whether s ends with an apostrophe or a hyphen: a
// host must end in a letter or mark, so "x-n't" and "rock'n't" are not cut.
func endsWithJoiner(s string) bool {
	return apostropheEnding(s) > 0 || len(s) > 0 && s[len(s)-1] == '-'
}
