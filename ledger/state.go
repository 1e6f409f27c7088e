package ledger

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"math"
	"os"
	"time"

	"github.com/wordveil/wordveil/internal/atomicfile"
)

// state is the file's content: a JSON body and a CRC-32C trailer line, so a
// damaged file is detected rather than misread.
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

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

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
	// Exactly: body, "\n", "crc32c " + 8 lowercase hex digits, "\n".
	b, ok := bytes.CutSuffix(b, []byte("\n"))
	i := bytes.LastIndexByte(b, '\n')
	if !ok || i < 0 {
		return nil, fmt.Errorf("%w: %s: no checksum line", ErrCorrupt, l.path)
	}
	body, trailer := b[:i], b[i+1:]
	if want := fmt.Sprintf("crc32c %08x", crc32.Checksum(body, castagnoli)); string(trailer) != want {
		return nil, fmt.Errorf("%w: %s: checksum mismatch", ErrCorrupt, l.path)
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
	data := fmt.Appendf(body, "\ncrc32c %08x\n", crc32.Checksum(body, castagnoli))
	if err := atomicfile.WriteFile(l.path, data, 0o600); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}
