package memo

import (
	"crypto/hmac"
	"encoding/binary"
	"fmt"
)

// Anchor keeps, outside the memo's directory, the latest state of each
// memo file: its record count and chain head (format.go). A file can be
// rolled back (a backup restored, whole records cut off, an older copy put
// back) but the anchor cannot roll back with it, so Open and every
// Resolve compare the file with it and fail closed (ErrCorrupt) on a file
// that holds fewer records than the anchor says, or whose records up to
// the anchor's count are not the ones the anchor saw.
//
// The host implements it over storage that is not backed up nor restored
// with the memo's directory: on Android the Keystore-protected preferences
// beside the memo secret, on iOS the Keychain (…ThisDeviceOnly); the CLI
// keeps one small file per memo next to its key (cmd/wordveil). name is
// short ASCII ("memo-" and 32 hex digits, keyed by the secret: it does not
// say which mechanism, ε or asset the memo serves); the state is 45 opaque
// bytes (a MAC value and a count: it reveals nothing else). Load returns
// nil or empty (and no error) for a name never stored. Store must be
// durable when it returns. Calls are made with the memo file locked, one at a time per
// file.
type Anchor interface {
	Load(name string) ([]byte, error)
	Store(name string, state []byte) error
}

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

// loadAnchor returns the anchor's state for m's file, if there is one.
func (m *Memo) loadAnchor() (a anchorState, ok bool, err error) {
	if m.anchor == nil {
		return a, false, nil
	}
	b, err := m.anchor.Load(m.name)
	if err != nil {
		return a, false, fmt.Errorf("memo: anchor: %w", err)
	}
	if len(b) == 0 { // nothing stored (a host may return empty for none)
		return a, false, nil
	}
	a, err = parseAnchor(b)
	return a, err == nil, err
}

// storeAnchor records m's current state in the anchor.
func (m *Memo) storeAnchor() error {
	if m.anchor == nil {
		return nil
	}
	if err := m.anchor.Store(m.name, anchorState{m.count, m.head}.marshal()); err != nil {
		return fmt.Errorf("memo: anchor: %w", err)
	}
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
