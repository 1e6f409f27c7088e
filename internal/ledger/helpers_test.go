package ledger

import (
	"os"
	"path/filepath"
	"testing"
)

// writeLog writes a ledger file in dir: the snapshot st (nonce 1) and then
// charges as log records, the way Open and Charge would lay them out. It
// returns the file's bytes and each record's start offset.
func writeLog(tb testing.TB, dir string, st *state, charges ...charge) (file []byte, starts []int) {
	tb.Helper()
	st.nonce = 1
	b := encodeSnapshot(st, st.nonce)
	for _, c := range charges {
		starts = append(starts, len(b))
		b = append(b, chargeSlot(st.nonce, int64(len(b)), c)...)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), b, 0o600); err != nil {
		tb.Fatal(err)
	}
	return b, starts
}
