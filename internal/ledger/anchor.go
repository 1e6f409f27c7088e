package ledger

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/wordveil/wordveil/internal/anchor"
)

// AnchorPrefix begins the name under which a ledger's position is kept.
const AnchorPrefix = "ledger-"

// anchorName is the anchor's name for the ledger of id id.
func anchorName(id [ledgerIDLen]byte) string { return AnchorPrefix + hex.EncodeToString(id[:]) }

var anchorMagic = [5]byte{'W', 'V', 'L', 'A', 1}

const anchorLen = len(anchorMagic) + ledgerIDLen + 8 + 32

// position is a point of a ledger's history.
type position struct {
	id   [ledgerIDLen]byte
	seq  uint64
	head [32]byte
}

func (p position) marshal() []byte {
	b := append([]byte(nil), anchorMagic[:]...)
	b = append(b, p.id[:]...)
	b = binary.BigEndian.AppendUint64(b, p.seq)
	return append(b, p.head[:]...)
}

func parsePosition(b []byte) (position, error) {
	var p position
	if len(b) != anchorLen || [5]byte(b) != anchorMagic {
		return p, fmt.Errorf("%w: the anchor's state is malformed (%d bytes)", ErrCorrupt, len(b))
	}
	b = b[len(anchorMagic):]
	p.id = [ledgerIDLen]byte(b)
	p.seq = binary.BigEndian.Uint64(b[ledgerIDLen:])
	p.head = [32]byte(b[ledgerIDLen+8:])
	return p, nil
}

func newLedgerID() (id [ledgerIDLen]byte) {
	rand.Read(id[:]) // never fails (crypto/rand)
	return id
}

func chainStart(id [ledgerIDLen]byte) [32]byte {
	return sha256.Sum256(append([]byte("wordveil ledger chain"), id[:]...))
}

// chainNext is the head after a record of slots rec.
func chainNext(head [32]byte, rec []byte) [32]byte {
	h := sha256.New()
	h.Write(head[:])
	h.Write(rec)
	return [32]byte(h.Sum(nil))
}

// pos is st's current position.
func (st *state) pos() position { return position{st.id, st.seq, st.head} }

// checkWant compares st with the position it must pass through, at the
// moment st reaches that position's count (or is already past it at its
// snapshot, when nothing can be compared).
func (st *state) checkWant() error {
	w := st.want
	switch {
	case w == nil:
		return nil
	case w.id != st.id:
		return fmt.Errorf("%w: another ledger's file (its id is not the one last seen)", ErrCorrupt)
	case st.seq == w.seq && st.head != w.head:
		return fmt.Errorf("%w: the ledger's first %d records are not the ones last seen (an older copy, or another file)", ErrCorrupt, w.seq)
	}
	return nil
}

// checkReached fails when st ends before the position it must reach.
func (st *state) checkReached() error {
	if w := st.want; w != nil && st.seq < w.seq {
		return fmt.Errorf("%w: the ledger holds %d records, %d were seen (rolled back: records cut off or an older copy restored)", ErrCorrupt, st.seq, w.seq)
	}
	return nil
}

// loadAnchor reads the anchor's position for the ledger of id id, if any.
func (l *Ledger) loadAnchor(id [ledgerIDLen]byte) (*position, error) {
	if l.anchor == nil {
		return nil, nil
	}
	b, err := l.anchor.Load(anchorName(id))
	if err != nil {
		return nil, fmt.Errorf("ledger: anchor: %w", err)
	}
	if len(b) == 0 { // nothing stored (a host may return empty for none)
		return nil, nil
	}
	if anchor.IsRetired(b) {
		return nil, fmt.Errorf("%w: this ledger was reset (its files deleted on purpose): a copy restored since would hand back what was spent after the reset", ErrCorrupt)
	}
	p, err := parsePosition(b)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// storeAnchor records the cached state's position in the anchor, after
// an append (records first, then the anchor, then the caller returns).
// On failure the cache is dropped: the record is durable and the next
// call reads it back.
func (l *Ledger) storeAnchor() error {
	if l.anchor == nil || l.st == nil {
		return nil
	}
	if err := l.anchor.Store(anchorName(l.st.id), l.st.pos().marshal()); err != nil {
		l.st = nil
		return fmt.Errorf("ledger: anchor: %w", err)
	}
	return nil
}
