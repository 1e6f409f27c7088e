package mobile

import (
	"fmt"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/mechanism"
	"github.com/wordveil/wordveil/privatize"
)

// errClosed is returned by the methods of a closed Privatizer; its code
// comes from codeTable's row for privatize.ErrClosed.
var errClosed = wrap(fmt.Errorf("mobile: %w", privatize.ErrClosed))

// handles are what the methods use of an open privatizer, read at once so
// that Close may clear the fields meanwhile.
type handles struct {
	asset *wva.Asset
	mech  mechanism.Mechanism
	text  *privatize.Privatizer
}

// use returns p's handles: WV_CLOSED after Close, WV_INVALID_ARGUMENT on
// a nil or zero-value Privatizer.
func (p *Privatizer) use() (handles, error) {
	if p == nil {
		return handles{}, errNotOpened
	}
	p.life.RLock()
	defer p.life.RUnlock()
	switch {
	case p.closed:
		return handles{}, errClosed
	case !p.opened():
		return handles{}, errNotOpened
	}
	return handles{p.asset, p.mech, p.text}, nil
}
