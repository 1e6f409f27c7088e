package ledger

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// encodeV2 is the version 2 snapshot layout (no ledger id, no chain), as
// version 2 wrote it.
func encodeV2(st *state, nonce uint64) []byte {
	live := st.win.live()
	life := st.life.v.Bytes()
	var body []byte
	body = binary.LittleEndian.AppendUint64(body, uint64(st.clock))
	body = binary.LittleEndian.AppendUint64(body, uint64(st.retention))
	body = binary.LittleEndian.AppendUint16(body, uint16(len(life)))
	body = append(body, life...)
	body = binary.LittleEndian.AppendUint64(body, uint64(len(live)))
	for _, c := range live {
		body = binary.LittleEndian.AppendUint64(body, uint64(c.at))
		body = binary.LittleEndian.AppendUint64(body, math.Float64bits(c.amount))
	}
	body = binary.LittleEndian.AppendUint32(body, uint32(len(st.bindings)))
	for _, name := range sortedKeys(st.bindings) {
		id := st.bindings[name]
		body = append(body, byte(len(name)), byte(len(id)))
		body = append(body, name...)
		body = append(body, id...)
	}
	out := make([]byte, headerSize)
	copy(out, magic)
	binary.LittleEndian.PutUint32(out[8:], versionV2)
	binary.LittleEndian.PutUint64(out[12:], nonce)
	binary.LittleEndian.PutUint64(out[20:], uint64(len(body)))
	binary.LittleEndian.PutUint32(out[28:], crc32.Checksum(out[:28], castagnoli))
	out = append(out, body...)
	return binary.LittleEndian.AppendUint32(out, bodySum(nonce, body))
}

// TestMigrateV2: a version 2 log (snapshot and records) is read with its
// totals and bindings, rewritten as a version 3 snapshot on Open, and its
// position anchored; a version 2 file put back where a version 3 ledger
// was anchored fails closed.
func TestMigrateV2(t *testing.T) {
	dir := t.TempDir()
	st := newState(int64(time.Hour))
	st.retention = int64(time.Hour)
	now := time.Now().UnixNano()
	st.apply(charge{at: now - 10, amount: 2})
	st.bindings["memo x"] = "id"
	b := encodeV2(st, 5)
	b = append(b, chargeSlot(5, int64(len(b)), charge{at: now - 5, amount: 3})...)
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, legacyName), []byte(tombstone), 0o600)
	a := &mapAnchor{}
	l, err := OpenWith(dir, Caps{PerPeriod: 10, Period: time.Hour}, Options{Anchor: a})
	if err != nil {
		t.Fatal(err)
	}
	if per, life, err := l.Spent(); err != nil || per != 5 || life != 5 {
		t.Fatalf("spent %v %v %v, want 5 5", per, life, err)
	}
	if err := l.Bind("memo x", "other"); !errors.Is(err, ErrBindingMismatch) {
		t.Fatalf("binding lost: %v", err)
	}
	got, _ := os.ReadFile(p)
	if _, _, ver, err := parseHeader(got); err != nil || ver != version {
		t.Fatalf("after Open: version %d %v", ver, err)
	}
	if pos, _ := a.Load(anchorName(l.st.id)); len(pos) != anchorLen {
		t.Fatalf("anchor %x", pos)
	}
	// The version 2 file put back has no id, so no anchor can name it: a
	// new Open migrates it again (docs/STATE_FILES.md lists this).
	os.WriteFile(p, b, 0o600)
	if _, err := Open(dir, Caps{}); err != nil {
		t.Fatalf("without the anchor: %v", err)
	}
}

// TestRebind: a binding renamed keeps its id, the old name leaves the
// ledger (and the file), a mismatch on either name fails, and Rebind of a
// name never bound is Bind.
func TestRebind(t *testing.T) {
	dir := t.TempDir()
	l, _ := Open(dir, Caps{})
	if err := l.Bind("old", "id1"); err != nil {
		t.Fatal(err)
	}
	if err := l.Rebind("old", "new", "id2"); !errors.Is(err, ErrBindingMismatch) {
		t.Fatalf("old bound to another id: %v", err)
	}
	if err := l.Rebind("old", "new", "id1"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, id string }{{"new", "id1"}, {"old", "anything"}} {
		if err := l.Bind(c.name, c.id); err != nil {
			t.Fatalf("Bind(%s, %s) after the rename: %v", c.name, c.id, err)
		}
	}
	l2, err := Open(dir, Caps{})
	if err != nil {
		t.Fatal(err)
	}
	if err := l2.Bind("new", "id2"); !errors.Is(err, ErrBindingMismatch) {
		t.Fatalf("renamed binding not kept: %v", err)
	}
	if err := l2.Rebind("x", "new", "id2"); !errors.Is(err, ErrBindingMismatch) {
		t.Fatalf("new bound to another id: %v", err)
	}
	if err := l2.Rebind("never", "fresh", "id3"); err != nil {
		t.Fatal(err)
	}
	if err := l2.Bind("fresh", "id4"); !errors.Is(err, ErrBindingMismatch) {
		t.Fatalf("Rebind of an unbound name did not bind: %v", err)
	}
}

// TestOpenBind: Options.Bind binds at open as Bind does, renames a Legacy
// name as Rebind does, fails the open (ErrBindingMismatch) where either
// name is bound to another id, and an invalid binding is ErrInvalid.
func TestOpenBind(t *testing.T) {
	dir := t.TempDir()
	open := func(b Binding) error {
		l, err := OpenWith(dir, Caps{}, Options{Bind: b})
		if err == nil {
			if l.Bound() != b {
				t.Errorf("Bound %+v, want %+v", l.Bound(), b)
			}
			l.Close()
		}
		return err
	}
	l, _ := Open(dir, Caps{})
	if err := l.Bind("old", "id1"); err != nil {
		t.Fatal(err)
	}
	l.Close()
	for _, c := range []struct {
		name string
		b    Binding
		want error
	}{
		{"legacy bound to another id", Binding{Name: "new", ID: "id2", Legacy: "old"}, ErrBindingMismatch},
		{"legacy renamed", Binding{Name: "new", ID: "id1", Legacy: "old"}, nil},
		{"same binding again", Binding{Name: "new", ID: "id1", Legacy: "old"}, nil},
		{"old name gone", Binding{Name: "old", ID: "anything"}, nil},
		{"renamed binding kept", Binding{Name: "new", ID: "id2"}, ErrBindingMismatch},
		{"new bound to another id", Binding{Name: "new", ID: "id2", Legacy: "x"}, ErrBindingMismatch},
		{"fresh name", Binding{Name: "fresh", ID: "id3"}, nil},
		{"fresh name, another id", Binding{Name: "fresh", ID: "id4"}, ErrBindingMismatch},
		{"no id", Binding{Name: "x"}, ErrInvalid},
		{"legacy without a name", Binding{ID: "id1", Legacy: "old"}, ErrInvalid},
	} {
		if err := open(c.b); (c.want == nil) != (err == nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestClose: calls after Close are ErrInvalid; Close twice is fine.
func TestClose(t *testing.T) {
	l, _ := Open(t.TempDir(), Caps{})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Charge(1); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Charge after Close: %v", err)
	}
	var z *Ledger
	if err := z.Close(); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil Close: %v", err)
	}
}
