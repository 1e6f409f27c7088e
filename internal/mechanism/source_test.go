package mechanism

import "testing"

func TestSecureSourcesDiffer(t *testing.T) {
	a, b := NewSecureSource(), NewSecureSource()
	eq := 0
	for range 8 {
		if a.Uint64() == b.Uint64() {
			eq++
		}
	}
	if eq == 8 {
		t.Fatal("two secure sources produced the same stream: not keyed from crypto/rand")
	}
}
