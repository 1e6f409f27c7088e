package audit

import (
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/wva"
)

// custextAsset is the default asset's first n words with sets built by
// greedyGroups (farthest: the least-similar bug) stored in it, as a
// builder would store them.
func custextAsset(t *testing.T, n, k int, farthest bool) *wva.Asset {
	t.Helper()
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	sub := (&wva.Asset{Codes: a.Codes[:n]}).SetWords(a.WordList()[:n])
	if sub.CusText, err = wva.NewCusTextSets(n, k, greedyGroups(sub.Codes, k, farthest)); err != nil {
		t.Fatal(err)
	}
	return sub
}

// An asset carrying sets: its sampled groups are re-derived and the laws
// audited over whole stored sets; sets of the least similar words make
// the audit fail with an error instead of auditing laws over them.
func TestCusTextStoredSets(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n, k     int
		farthest bool
		wantErr  bool
	}{
		{"nearest, k=20", 300, 20, false, false},
		{"nearest, short last group", 301, 20, false, false},
		{"least similar (pypantera's bug)", 300, 20, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tab Table
			err := cusTextCases(&tab, custextAsset(t, tc.n, tc.k, tc.farthest), 48)
			if tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), "not the greedy nearest-unassigned construction") {
					t.Fatalf("err = %v, want the sets refused", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			stored := 0
			for _, r := range tab.Results {
				if !r.OK {
					t.Errorf("%s on %s: %s", r.Mechanism, r.Vocabulary, r.Status)
				}
				if strings.Contains(r.Vocabulary, "stored groups re-derived") {
					stored++
				}
			}
			if stored == 0 {
				t.Fatal("no case over the stored sets")
			}
		})
	}
}

// checkGreedy tells the two constructions apart group by group, and a
// sets' check of a single group re-derives it against every later word.
func TestCheckGreedy(t *testing.T) {
	a := custextAsset(t, 120, 8, false)
	if bad, first := checkGreedy(a.Codes, a.CusText, allGroups(a.CusText)); bad != 0 || first != -1 {
		t.Fatalf("nearest sets: %d groups differ (first %d)", bad, first)
	}
	b := custextAsset(t, 120, 8, true)
	bad, first := checkGreedy(b.Codes, b.CusText, allGroups(b.CusText))
	if bad == 0 || first != 0 {
		t.Fatalf("least-similar sets: %d groups differ (first %d), want the first group caught", bad, first)
	}
}
