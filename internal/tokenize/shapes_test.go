package tokenize

import "github.com/wordveil/wordveil/internal/shapes"

// adversarialShapes are the texts the tokenizer must handle in linear time
// (package shapes).
var adversarialShapes = shapes.All

// shapeText returns unit repeated to exactly n bytes.
func shapeText(unit string, n int) string { return shapes.Text(unit, n) }
