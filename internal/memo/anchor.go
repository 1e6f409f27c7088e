package memo

import (
	"crypto/hmac"
	"encoding/binary"
	"fmt"
)

// anchorMagic starts an anchor state: "WVMA", version 1.
var anchorMagic = [5]byte{'W', 'V', 'M', 'A', 1}

const anchorLen = len(anchorMagic) + 8 + macLen

// anchorState is a file's (record count, chain head).
type anchorState struct {
	count uint64
	head  [macLen]byte
}

func (a anchorState) marshal() []byte {
	b := make([]byte, 0, anchorLen)
	b = append(b, anchorMagic[:]...)
	b = binary.BigEndian.AppendUint64(b, a.count)
	return append(b, a.head[:]...)
}

func parseAnchor(b []byte) (anchorState, error) {
	var a anchorState
	if len(b) != anchorLen || [5]byte(b) != anchorMagic {
		return a, fmt.Errorf("%w: the anchor's state is malformed (%d bytes)", ErrCorrupt, len(b))
	}
	a.count = binary.BigEndian.Uint64(b[len(anchorMagic):])
	a.head = [macLen]byte(b[len(anchorMagic)+8:])
	if a.count > MaxEntries {
		return a, fmt.Errorf("%w: the anchor says %d records", ErrCorrupt, a.count)
	}
	return a, nil
}

// storeAnchor records m's current state in the anchor.
func (m *Memo) storeAnchor() error {
	if m.anchor == nil {
		return nil
	}
	if err := m.anchor.Store(m.name, anchorState{m.count, m.head}.marshal()); err != nil {
		return fmt.Errorf("memo: anchor: %w", err)
	}
	m.anchored = m.count
	return nil
}

// checkAt is called at every record count the file is read to: when it
// reaches the count m.want holds, the chain head must be the one recorded.
func (m *Memo) checkAt() error {
	if m.want != nil && m.count == m.want.count && !hmac.Equal(m.head[:], m.want.head[:]) {
		return fmt.Errorf("%w: the file's first %d records are not the ones last seen (an older copy, or another file)", ErrCorrupt, m.count)
	}
	return nil
}
