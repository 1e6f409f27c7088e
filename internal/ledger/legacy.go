package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"

	"github.com/wordveil/wordveil/internal/safefile"
)

// legacyName is the file of the version 1 ledger: one JSON document under a
// CRC-32C trailer, rewritten whole on every charge. Once migrated, it holds
// the tombstone instead, which version 1 reads as a corrupt ledger (so an old
// build still running fails closed rather than starting a fresh budget),
// and which also marks the directory as holding a ledger: a log deleted
// from under it is reported, not silently replaced.
const legacyName = "wordveil-ledger.json"

const tombstone = "wordveil ledger: moved to " + FileName + "; keep this file\n"

// maxLegacySize bounds the version 1 file read into memory.
const maxLegacySize = 64 << 20

type legacyState struct {
	Version  int            `json:"version"`
	Lifetime float64        `json:"lifetime"`
	Charges  []legacyCharge `json:"charges"`
}

type legacyCharge struct {
	At     int64   `json:"t"` // Unix nanoseconds
	Amount float64 `json:"a"`
}

// readLegacy reads path: (nil, false, nil) if there is no file, (nil, true,
// nil) for the tombstone, else the version 1 state, or ErrCorrupt.
func readLegacy(path string, period int64) (st *state, isTombstone bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("ledger: read %s: %w", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxLegacySize+1))
	if err != nil {
		return nil, false, fmt.Errorf("ledger: read %s: %w", path, err)
	}
	if string(b) == tombstone {
		return nil, true, nil
	}
	st, err = parseLegacy(b, period)
	if err != nil {
		return nil, false, fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
	}
	return st, false, nil
}

// parseLegacy checks a version 1 file as version 1 did, and carries its
// lifetime and in-window charges over.
func parseLegacy(b []byte, period int64) (*state, error) {
	if len(b) > maxLegacySize {
		return nil, errors.New("version 1 file too large")
	}
	body, err := safefile.ParseChecked(b)
	if err != nil {
		return nil, err
	}
	var v1 legacyState
	if err := json.Unmarshal(body, &v1); err != nil {
		return nil, err
	}
	if v1.Version != 1 {
		return nil, fmt.Errorf("version %d, want 1", v1.Version)
	}
	if v1.Lifetime < 0 || math.IsNaN(v1.Lifetime) || math.IsInf(v1.Lifetime, 0) {
		return nil, fmt.Errorf("lifetime %v", v1.Lifetime)
	}
	// Version 1 stamped charges with the raw wall clock, which may have
	// gone backwards; the set of charges is what counts, so sort it.
	slices.SortStableFunc(v1.Charges, func(a, b legacyCharge) int { return cmpInt(a.At, b.At) })
	st := newState(period)
	var inWindow exactSum
	for _, c := range v1.Charges {
		if c.Amount < 0 || math.IsNaN(c.Amount) || math.IsInf(c.Amount, 0) {
			return nil, fmt.Errorf("charge of %v", c.Amount)
		}
		c.Amount += 0 // −0 becomes +0, the canonical zero
		inWindow.add(c.Amount)
		st.apply(charge{at: c.At, amount: c.Amount})
	}
	// Version 1 summed the lifetime in float64, which can round below the
	// exact sum of the charges it kept; take whichever is larger.
	scaled(&st.life.v, v1.Lifetime) // replaces the sum apply made
	if inWindow.v.Cmp(&st.life.v) > 0 {
		st.life.v.Set(&inWindow.v)
	}
	if st.life.v.Cmp(maxTotal) > 0 {
		return nil, errors.New("lifetime total out of range")
	}
	return st, nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
