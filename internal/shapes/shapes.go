// Package shapes lists the adversarial input shapes that tokenizing and
// privatizing must handle in time linear in the input: long runs, without
// whitespace, of every character class the tokenizer treats specially, and
// prose for comparison. The tokenizer's work-bound test and the shape
// benchmarks of the tokenizer and the text privatizer share this one list.
package shapes

import "strings"

// Shape is a unit repeated to make a text.
type Shape struct {
	// Name labels the shape in test and benchmark names.
	Name string
	// Unit is the string repeated (see Text) to build an input.
	Unit string
}

// All are the shapes, prose first.
var All = []Shape{
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

// Text returns unit repeated to exactly n bytes (the last copy may be cut
// inside a rune, which is one more invalid byte to handle).
func Text(unit string, n int) string {
	if n <= 0 || unit == "" {
		return ""
	}
	return strings.Repeat(unit, n/len(unit)+1)[:n]
}

// Sizes are the benchmark sizes: a message, a document, and the text
// privatizer's default limit.
var Sizes = []struct {
	Name string
	N    int
}{{"10kB", 10_000}, {"1MB", 1_000_000}, {"16MiB", 16 << 20}}
