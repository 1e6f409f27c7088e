package tokenize

import "github.com/wordveil/wordveil/internal/shapes"

// adversarialShapes are the texts the tokenizer must handle in linear time:
// those of package shapes, and shapes that load the clitic cutter (long
// words made of clitics, apostrophes in every position).
var adversarialShapes = append(append([]shapes.Shape(nil), shapes.All...), cliticShapes...)

var cliticShapes = []shapes.Shape{
	{Name: "clitic-prose", Unit: "I'm sure they don't know John’s dog, it's fine; we'll see. "},
	{Name: "'s", Unit: "'s"},   // "'" then one word: s 's 's 's ...
	{Name: "x's", Unit: "x's"}, // one word x'sx'...x 's
	{Name: "n't", Unit: "n't"}, // one word: n't n't n't ... (host "n't")
	{Name: "N’T", Unit: "N’T"}, // the same, curly and upper case
	{Name: "all-clitics", Unit: "a'sn't'll've'd're'm"},
	{Name: "'", Unit: "'"},             // apostrophes only
	{Name: "x''", Unit: "x''"},         // apostrophes that join nothing
	{Name: "rock'n'", Unit: "rock'n'"}, // inner apostrophes, no clitic
	{Name: "a-n't", Unit: "a-n't'"},    // a hyphen before n't: not cut
}

// shapeText returns unit repeated to exactly n bytes.
func shapeText(unit string, n int) string { return shapes.Text(unit, n) }
