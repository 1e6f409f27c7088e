package study

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadRecords: a results file of any content (torn writes, garbage)
// reads without a panic; lines that are not records are skipped; Current
// keeps a subset of them, all of the last record's configuration.
func FuzzReadRecords(f *testing.F) {
	f.Add([]byte(`{"kind":"accuracy","mechanism":"tem","eps_index":1,"run":2,"accuracy":0.8,"fingerprint":"x"}` + "\n" + `{"kind":"acc`))
	f.Add([]byte("\n\n{}\n[1]\n"))
	f.Add([]byte(`{"kind":"ratio","metric":"euclidean","fingerprint":"a","config":"a"}` + "\n" + `{"kind":"accuracy","mechanism":"tem","fingerprint":"t","config":"b"}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// Inputs under the scanner's 1 MiB line limit never fail.
		recs, err := ReadRecords(path)
		if err != nil && len(data) < 1<<20 {
			t.Fatalf("ReadRecords: %v", err)
		}
		cur := Current(recs)
		if len(cur) > len(recs) || len(recs) > 0 && len(cur) == 0 {
			t.Fatalf("Current kept %d of %d records", len(cur), len(recs))
		}
		for _, r := range cur {
			if r.Config != recs[len(recs)-1].Config {
				t.Fatalf("Current kept a record of configuration %q, the last is %q", r.Config, recs[len(recs)-1].Config)
			}
		}
		if _, err := ReadEmpirical(path); err != nil && len(data) < 1<<20 {
			t.Fatalf("ReadEmpirical: %v", err)
		}
	})
}
