package study

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/wva"
)

// TestPerSpecFingerprints: adding a mechanism to a finished study runs
// only its cells; changing the pool reruns only the pooled mechanisms;
// changing the asset's content (same name and size) reruns everything;
// Current then selects exactly the last configuration's records.
func TestPerSpecFingerprints(t *testing.T) {
	env, tr, te := fixture(t)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	cfg := testConfig(env, tr, te, path)
	cfg.Mechanisms = []string{"madlib", "1dg-1"}
	var log bytes.Buffer
	cfg.Log = &log
	run := func() []Record {
		t.Helper()
		before, _ := ReadRecords(path)
		log.Reset()
		if err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		after, err := ReadRecords(path)
		if err != nil {
			t.Fatal(err)
		}
		return after[len(before):]
	}
	count := func(recs []Record) map[string]int {
		m := map[string]int{}
		for _, r := range recs {
			m[r.Kind+"/"+r.Mechanism]++
		}
		return m
	}
	cells := len(cfg.Grid) // madlib's and santext-float's; 1dg-1 has ListGrid
	lists := len(ListGrid)
	first := run()
	if got := count(first); got["accuracy/madlib"] != cells*cfg.Runs || got["accuracy/1dg-1"] != lists*cfg.Runs || got["baseline/none"] != cfg.Runs || got["ratio/"] != 4 {
		t.Fatalf("first run wrote %v", got)
	}

	cfg.Mechanisms = append(cfg.Mechanisms, "santext-float")
	added := run()
	want := map[string]int{"accuracy/santext-float": cells * cfg.Runs, "deniability/santext-float": cells}
	if got := count(added); !reflect.DeepEqual(got, want) {
		t.Errorf("adding a mechanism wrote %v, want %v", got, want)
	}
	if strings.Contains(log.String(), "another configuration") {
		t.Errorf("adding a mechanism made records stale:\n%s", log.String())
	}

	cfg.PoolK = 5 // madlib is pooled; 1dg-1 and santext-float are not
	pooled := run()
	want = map[string]int{"accuracy/madlib": cells * cfg.Runs, "deniability/madlib": cells}
	if got := count(pooled); !reflect.DeepEqual(got, want) {
		t.Errorf("changing the pool wrote %v, want %v", got, want)
	}
	if !strings.Contains(log.String(), "0: another asset, corpus, seed, classifier or deniability protocol; 6: another ε grid or pool") {
		t.Errorf("log after a pool change:\n%s", log.String())
	}

	// The same asset name and size, other content hash: the fixture is
	// built in memory (zero hash); decoded from its file it has the
	// file's hash.
	file, err := wva.Marshal(env.Asset)
	if err != nil {
		t.Fatal(err)
	}
	if env.Asset, err = wva.Decode(file); err != nil {
		t.Fatal(err)
	}
	again := run()
	got := count(again)
	if got["accuracy/madlib"] != cells*cfg.Runs || got["accuracy/1dg-1"] != lists*cfg.Runs || got["accuracy/santext-float"] != cells*cfg.Runs ||
		got["deniability/1dg-1"] != lists || got["baseline/none"] != cfg.Runs || got["ratio/"] != 4 {
		t.Errorf("another asset content reran %v", got)
	}
	if !strings.Contains(log.String(), "are from another configuration and are not reused") {
		t.Errorf("log after an asset change:\n%s", log.String())
	}

	all, _ := ReadRecords(path)
	cur := Current(all)
	if len(cur) != len(again) {
		t.Fatalf("Current kept %d records, the last configuration has %d", len(cur), len(again))
	}
	for i := range cur {
		if !reflect.DeepEqual(cur[i], again[i]) {
			t.Fatalf("Current[%d] = %+v, want %+v", i, cur[i], again[i])
		}
	}
}

func TestCurrent(t *testing.T) {
	rec := func(kind, mech, cfg, fp string, run int) Record {
		return Record{Kind: kind, Mechanism: mech, Config: cfg, Fingerprint: fp, Run: run}
	}
	for _, tc := range []struct {
		name string
		in   []Record
		want []int // indices of in
	}{
		{"empty", nil, nil},
		{"one configuration", []Record{
			rec("ratio", "", "A", "A", 0), rec("baseline", "", "A", "A", 0), rec("accuracy", "tem", "A", "t1", 0),
		}, []int{0, 1, 2}},
		{"a mechanism rerun with another spec replaces only its cells", []Record{
			rec("accuracy", "tem", "A", "t1", 0), rec("accuracy", "madlib", "A", "m1", 0),
			rec("deniability", "tem", "A", "t1", 0), rec("accuracy", "tem", "A", "t2", 0), rec("deniability", "tem", "A", "t2", 0),
		}, []int{1, 3, 4}},
		{"a new common configuration drops the old one, even unfinished", []Record{
			rec("ratio", "", "A", "A", 0), rec("accuracy", "tem", "A", "t1", 0), rec("accuracy", "madlib", "A", "m1", 0),
			rec("ratio", "", "B", "B", 0), rec("accuracy", "tem", "B", "t3", 0),
		}, []int{3, 4}},
		{"records without Config (older files) form one configuration", []Record{
			rec("accuracy", "tem", "", "old", 0), rec("accuracy", "tem", "", "f", 0), rec("accuracy", "madlib", "", "f", 0),
		}, []int{1, 2}},
		{"an old file's records are not mixed into a new configuration", []Record{
			rec("accuracy", "madlib", "", "f", 0), rec("accuracy", "tem", "A", "t1", 0),
		}, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Current(tc.in)
			var want []Record
			for _, i := range tc.want {
				want = append(want, tc.in[i])
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Current = %+v, want %+v", got, want)
			}
		})
	}
}
