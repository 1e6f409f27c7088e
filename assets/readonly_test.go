package assets

import (
	"runtime/debug"
	"testing"
)

// TestDefaultBytesReadOnly: the embedded file lies in read-only memory, so
// a write into it (or into the codes a decoded asset uses in place) faults
// instead of changing the asset for the whole process. SetPanicOnFault
// turns the fault into a panic this test can see; should the write
// succeed (the control the test exists for: an embed into a []byte lands
// in writable data), the byte is put back before the test fails.
func TestDefaultBytesReadOnly(t *testing.T) {
	b := DefaultBytes()
	old := b[0]
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	faulted := func() (faulted bool) {
		defer func() { faulted = recover() != nil }()
		b[0] = old ^ 0xff
		return false
	}()
	if !faulted {
		b[0] = old
		t.Fatal("writing into the embedded asset succeeded: it is not in read-only memory")
	}
}
