package study

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadRecords: a results file of any content (torn writes, garbage)
// reads without a panic; lines that are not records are skipped.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"kind":"accuracy","mechanism":"tem","eps_index":1,"run":2,"accuracy":0.8,"fingerprint":"x"}` + "\n" + `{"kind":"acc`))
	f.Add([]byte("\n\n{}\n[1]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// Inputs under the scanner's 1 MiB line limit never fail.
		if _, err := ReadRecords(path); err != nil && len(data) < 1<<20 {
			t.Fatalf("ReadRecords: %v", err)
		}
		if _, err := ReadEmpirical(path); err != nil && len(data) < 1<<20 {
			t.Fatalf("ReadEmpirical: %v", err)
		}
	})
}
