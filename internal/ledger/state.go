package ledger

import (
	"fmt"
	"math"
	"slices"
)

// state is the ledger as last read from (or written to) its file.
type state struct {
	nonce     uint64 // identifies the snapshot the log continues
	clock     int64  // ledger time: the latest charge time recorded (ns)
	retention int64  // ns: charges this recent are kept in the snapshot
	life      exactSum
	win       window
	bindings  map[string]string
	records   int // entries in the file: snapshot charges and bindings, then records

	id   [ledgerIDLen]byte // random, made with the ledger (format.go)
	seq  uint64            // records ever appended: the chain's count
	head [32]byte          // the chain's head after seq records
	v2   bool              // read from a version 2 file, to be rewritten
	want *position         // a state the file must reach (anchor.go); nil: none
}

func newState(period int64) *state {
	return &state{clock: math.MinInt64, win: window{period: period}, bindings: map[string]string{}}
}

// apply adds a charge (already validated) to the totals.
func (st *state) apply(c charge) {
	st.clock = max(st.clock, c.at)
	st.life.add(c.amount)
	st.win.push(c)
}

// bind records a binding read from the file.
func (st *state) bind(name, id string) error {
	if err := validBinding(name, id); err != nil {
		return fmt.Errorf("%w: binding: %v", ErrCorrupt, err)
	}
	if _, ok := st.bindings[name]; ok {
		return fmt.Errorf("%w: name bound twice", ErrCorrupt)
	}
	st.bindings[name] = id
	return nil
}

func validBinding(name, id string) error {
	if len(name) < 1 || len(name) > maxName || len(id) < 1 || len(id) > maxID {
		return fmt.Errorf("name must be 1 to %d bytes and id 1 to %d bytes (got %d and %d)", maxName, maxID, len(name), len(id))
	}
	return nil
}

// validLegacy checks b's Legacy name, when it has one.
func validLegacy(b Binding) error {
	if b.Legacy == "" {
		return nil
	}
	return validBinding(b.Legacy, b.ID)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
