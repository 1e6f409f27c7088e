package tokenize

import "strings"

// adversarialShapes are the texts the tokenizer must handle in linear time:
// long runs without whitespace of every character class the scanner treats
// specially, and ordinary text for comparison. Each is a unit repeated.
var adversarialShapes = []struct{ name, unit string }{
	{"words", "the quick brown fox jumps over the lazy dog "},
	{"letters", "abcdefghij"},
	{"emoji", "🙂"},
	{"nul", "\x00"},
	{"digits", "0123456789"},
	{"at", "@"},
	{"dots", "."},
	{"a.a.", "a."},
	{"a@a@", "a@"},
	{"@a@a", "@a"},
	{"1.1.", "1."},
	{"x'x'", "x'"},
	{"x’x’", "x’"},
	{"dashes", "-"},
	{"invalid", "\xff"},
	{"brackets", "(a@b)"},
	{"http-prefix", "http:/"},
	{"mixed", "a.1b'c-🙂_x,2’é@("},
}

// shapeText returns unit repeated to exactly n bytes (the last copy may be
// cut inside a rune, which is one more invalid byte to handle).
func shapeText(unit string, n int) string {
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}
