package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/linereader"
)

// TestReadBlocksCutsLongLines: with cut, a line longer than blockBytes
// reaches the privatizer in parts of about blockBytes (each its own
// block), which put together give the line, and the line numbers of
// every block and of the end are right; without cut the line
// stays whole.
func TestReadBlocksCutsLongLines(t *testing.T) {
	long := strings.Repeat("\x00🙂a b-c don't ", 3*blockBytes/16) + "\n"
	input := "first\n" + long + "last"
	for _, cut := range []bool{true, false} {
		out := make(chan block)
		go readBlocks(context.Background(), linereader.New(strings.NewReader(input), 4*blockBytes), out, cut, nil)
		var texts []string
		var got strings.Builder
		var blocks []block
		for b := range out {
			blocks = append(blocks, b)
			for _, l := range b.lines {
				texts = append(texts, l)
				got.WriteString(l)
			}
		}
		if got.String() != input {
			t.Fatalf("cut=%v: the blocks do not put the input back together", cut)
		}
		end := blocks[len(blocks)-1]
		if end.err != io.EOF || end.last != 3 {
			t.Fatalf("cut=%v: last block ends with %v at line %d", cut, end.err, end.last)
		}
		longest := 0
		for _, s := range texts {
			longest = max(longest, len(s))
		}
		switch {
		case cut && longest > blockBytes+16:
			t.Fatalf("a part of %d bytes, above blockBytes %d", longest, blockBytes)
		case cut && len(texts) < 4:
			t.Fatalf("%d texts: the long line was not cut", len(texts))
		case !cut && longest != len(long):
			t.Fatalf("-json: the long line was cut (longest text %d bytes)", longest)
		}
		for _, b := range blocks {
			if cut && len(b.lines) > 0 && strings.Contains(b.lines[0], "🙂") && (b.first != 2 || b.last != 2) {
				t.Fatalf("a part of line 2 is numbered %d–%d", b.first, b.last)
			}
		}
	}
}
