package typedtext

import (
	"fmt"
	"io"
)

// capped reads at most max bytes of r and fails past that, so
// a decoder fed from it can never buffer more than max bytes, whatever the
// input. The limits are far above the pinned files' sizes.
type capped struct {
	r    io.Reader
	left int64
	what string
}

func newCapped(r io.Reader, max int64, what string) *capped {
	return &capped{r: r, left: max, what: what}
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// Probe for one more byte: input of exactly the limit is fine.
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			// No ErrFormat prefix here: the decoders' callers add it once.
			return 0, fmt.Errorf("%s is larger than the limit", c.what)
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
