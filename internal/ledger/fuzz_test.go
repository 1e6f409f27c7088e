package ledger

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wordveil/wordveil/internal/safefile"
)

// FuzzOpen: any ledger file content either opens (a valid ledger) or fails
// with ErrCorrupt; never a panic, never a negative or non-finite balance,
// never more in the period than in the lifetime.
func FuzzOpen(f *testing.F) {
	caps := Caps{PerPeriod: 5, Period: time.Hour}
	dir := f.TempDir()
	l, _ := Open(dir, caps)
	l.Charge(2)
	l.Bind("memo", "0123456789abcdef0123456789abcdef")
	l.Charge(0.5)
	good, _ := os.ReadFile(filepath.Join(dir, FileName))
	f.Add(good)
	f.Add(good[:len(good)-3])                             // torn
	f.Add(append(bytes.Clone(good), make([]byte, 64)...)) // zeros at the end
	f.Add([]byte(""))
	f.Add([]byte(magic))
	f.Add(good[:headerSize])
	f.Fuzz(func(t *testing.T, b []byte) {
		openFuzzed(t, b, caps)
	})
}

// FuzzParseLegacy: any version 1 file either parses into a valid state or
// is an error; never a panic, never a negative or non-finite balance.
func FuzzParseLegacy(f *testing.F) {
	f.Add([]byte("{\"version\":1,\"lifetime\":3,\"charges\":[]}\ncrc32c 00000000\n"))
	v1 := filepath.Join(f.TempDir(), legacyName)
	safefile.WriteChecked(v1, []byte(`{"version":1,"lifetime":3,"charges":[{"t":5,"a":1},{"t":2,"a":2}]}`), 0o600)
	valid, _ := os.ReadFile(v1)
	f.Add(valid)
	f.Add([]byte(tombstone))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := parseLegacy(b, int64(time.Hour))
		if err != nil {
			return
		}
		life := st.life.float()
		if life < 0 || math.IsInf(life, 0) || math.IsNaN(life) || st.win.periodSum.v.Cmp(&st.life.v) > 0 {
			t.Fatalf("lifetime %v, period sum %v", life, st.win.periodSum.float())
		}
	})
}

// FuzzSealed gets past the checksums: the fuzzer writes a snapshot body and
// log slots, and the test seals them with valid checksums, so what is
// exercised is the decoding and validation of their contents.
func FuzzSealed(f *testing.F) {
	st := newState(int64(time.Hour))
	st.retention = int64(time.Hour)
	st.apply(charge{at: 10, amount: 1.5})
	st.bindings["memo"] = "id"
	snap := encodeSnapshot(st, 1)
	body := snap[headerSize : len(snap)-4]
	var recs []byte
	recs = append(recs, chargeSlot(1, 0, charge{at: 11, amount: 2})...)
	recs = append(recs, bindSlots(1, 0, "other", string(bytes.Repeat([]byte("x"), 40)))...)
	recs = append(recs, retentionSlot(1, 0, int64(2*time.Hour))...)
	f.Add(body, recs)
	f.Add(body, recs[:40])
	f.Add([]byte{}, []byte{})
	caps := Caps{PerPeriod: 5, Period: time.Hour}
	f.Fuzz(func(t *testing.T, body, recs []byte) {
		if len(body) > 1<<16 || len(recs) > 1<<16 {
			return
		}
		st := newState(0)
		st.nonce = 1
		file := encodeSnapshot(st, 1)[:headerSize]
		binary.LittleEndian.PutUint64(file[20:], uint64(len(body)))
		binary.LittleEndian.PutUint32(file[28:], crc32.Checksum(file[:28], castagnoli))
		file = append(file, body...)
		file = binary.LittleEndian.AppendUint32(file, bodySum(1, body))
		for len(recs) >= slotSize {
			s := append([]byte(nil), recs[:slotSize]...)
			sealSlot(1, int64(len(file)), s)
			file, recs = append(file, s...), recs[slotSize:]
		}
		file = append(file, recs...)
		dir, l := openFuzzed(t, file, caps)
		if l == nil {
			return
		}
		// What opened must stay usable: a charge appends after it.
		if _, err := l.Charge(0); err != nil && !errors.Is(err, ErrBudgetExceeded) {
			t.Fatalf("charge on a ledger that opened: %v", err)
		}
		if _, err := Open(dir, caps); err != nil {
			t.Fatalf("reopening after a charge: %v", err)
		}
	})
}

// openFuzzed opens a ledger whose log file holds b: it must either be
// ErrCorrupt (then l is nil) or a ledger with a valid balance.
func openFuzzed(t *testing.T, b []byte, caps Caps) (dir string, l *Ledger) {
	t.Helper()
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), b, 0o600)
	os.WriteFile(filepath.Join(dir, legacyName), []byte(tombstone), 0o600)
	l, err := Open(dir, caps)
	if err != nil {
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("unexpected error kind: %v", err)
		}
		return dir, nil
	}
	p, life, err := l.Spent()
	if err != nil || life < 0 || math.IsInf(life, 0) || math.IsNaN(life) || p < 0 || math.IsNaN(p) || p > life {
		t.Fatalf("opened with period %v lifetime %v (%v)", p, life, err)
	}
	return dir, l
}
