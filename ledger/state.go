package ledger

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"time"

	"github.com/wordveil/wordveil/internal/atomicfile"
)

// state is the file's content: a JSON body under a CRC-32C trailer line
// (atomicfile.WriteChecked), so a damaged file is detected, not misread.
type state struct {
	Version  int      `json:"version"`
	Lifetime float64  `json:"lifetime"`
	Charges  []charge `json:"charges"` // within the period only; older ones are pruned
}

type charge struct {
	At     int64   `json:"t"` // Unix nanoseconds
	Amount float64 `json:"a"`
}

const version = 1

func (s *state) inWindow(now time.Time, period time.Duration) float64 {
	if period <= 0 {
		return s.Lifetime
	}
	from := now.Add(-period).UnixNano()
	sum := 0.0
	for _, c := range s.Charges {
		if c.At > from {
			sum += c.Amount
		}
	}
	return sum
}

func (s *state) prune(now time.Time, period time.Duration) {
	if period <= 0 {
		s.Charges = nil
		return
	}
	from := now.Add(-period).UnixNano()
	j := 0
	for _, c := range s.Charges {
		if c.At > from {
			s.Charges[j] = c
			j++
		}
	}
	s.Charges = s.Charges[:j]
}

func (l *Ledger) read() (*state, error) {
	b, err := os.ReadFile(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return &state{Version: version}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ledger: read %s: %w", l.path, err)
	}
	body, err := atomicfile.ParseChecked(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, l.path, err)
	}
	var st state
	if err := json.Unmarshal(body, &st); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, l.path, err)
	}
	if st.Version != version {
		return nil, fmt.Errorf("%w: %s: version %d, want %d", ErrCorrupt, l.path, st.Version, version)
	}
	if st.Lifetime < 0 || math.IsNaN(st.Lifetime) || math.IsInf(st.Lifetime, 0) {
		return nil, fmt.Errorf("%w: %s: lifetime %v", ErrCorrupt, l.path, st.Lifetime)
	}
	// A negative charge would hand budget back; refuse the file.
	for _, c := range st.Charges {
		if c.Amount < 0 || math.IsInf(c.Amount, 0) {
			return nil, fmt.Errorf("%w: %s: charge %v", ErrCorrupt, l.path, c.Amount)
		}
	}
	return &st, nil
}

// write replaces the file atomically (internal/atomicfile): a crash leaves
// either the old or the new file.
func (l *Ledger) write(st *state) error {
	body, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("ledger: encode: %w", err)
	}
	if err := atomicfile.WriteChecked(l.path, body, 0o600); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}
