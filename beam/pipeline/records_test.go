package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A records file's name is its input file's and segment's alone, and the
// output directory's check accepts it, staged and temporary too.
func TestRecordsName(t *testing.T) {
	a, b := recordsName("/in/a.jsonl", 0), recordsName("/in/a.jsonl", segmentBytes-1)
	if a != b || a != "records-"+a[len("records-"):len("records-")+24]+"-000000.jsonl" {
		t.Errorf("%s and %s: one segment, want one name of the form records-<24 hex>-000000.jsonl", a, b)
	}
	for _, n := range []string{recordsName("/in/a.jsonl", segmentBytes), recordsName("/in/b.jsonl", 0), recordsName("gs://x/in/a.jsonl", 0)} {
		if n == a {
			t.Errorf("%s: another segment or file, the same name", n)
		}
	}
	big := recordsName("x", 1234567*segmentBytes)
	if !strings.HasSuffix(big, "-1234567.jsonl") {
		t.Errorf("segment 1234567: %s", big)
	}
	for _, n := range []string{a, big, stagingPrefix + a, stagingPrefix + a + ".tmp-0123abcd"} {
		if !outputFile.MatchString(n) {
			t.Errorf("%s is refused in an output directory", n)
		}
	}
	if !publishedFile.MatchString(a) || !publishedFile.MatchString(big) {
		t.Errorf("%s or %s is not published", a, big)
	}
	// An earlier version's records file is cleaned, never published.
	if old := "records-00000-of-00008.jsonl"; !outputFile.MatchString(stagingPrefix+old) || publishedFile.MatchString(old) {
		t.Errorf("%s: cleaned %v, published %v", old, outputFile.MatchString(stagingPrefix+old), publishedFile.MatchString(old))
	}
	for _, n := range []string{"records-xyz-000000.jsonl", "records-" + strings.Repeat("0", 24) + "-00000.jsonl", "records-" + strings.Repeat("0", 24) + "-000000.json"} {
		if outputFile.MatchString(n) || publishedFile.MatchString(n) {
			t.Errorf("%s is accepted in an output directory", n)
		}
	}
}

// A segment re-read again (a runner's retry, or a second attempt running
// at once) replaces its records file whole: one file per segment, the
// last attempt's lines, none of them twice.
func TestRecordsFileRetried(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "in.jsonl")
	var b strings.Builder
	for n := 1; b.Len() < segmentBytes+segmentBytes/2; n++ { // two segments
		fmt.Fprintf(&b, "{\"user\":\"u%d\",\"text\":\"the cat sat on mat number %d\"}\n", n%5, n)
	}
	writeInput(t, path, b.String())
	groups := readSlots(t, path, func(line int64) bool { return line%3 != 0 })
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	attempt := func(seed uint64) map[string]string {
		fn := &privatizeFn{Format: FormatJSONL, MaxRecordBytes: 1 << 10, Seed: seed, OverCap: OverCapDrop, Dir: out, Parallelism: 2}
		if err := fn.Setup(); err != nil {
			t.Fatal(err)
		}
		defer fn.Teardown()
		for k, g := range groups {
			err := fn.ProcessElement(context.Background(), k, iterOf(g, func(s slot) slotBatch { return slotBatch{Slots: []slot{s}} }),
				func(int, int) {}, func(string, segmentBits) { t.Fatal("a seekable file's segment sent to the sequential re-read") })
			if err != nil {
				t.Fatal(err)
			}
		}
		files := map[string]string{}
		ents, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			data, err := os.ReadFile(filepath.Join(out, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = string(data)
		}
		return files
	}
	first := attempt(7)
	second := attempt(8)
	if len(first) != 2 || len(second) != 2 {
		t.Fatalf("%d files, then %d: want one per segment, 2", len(first), len(second))
	}
	out = t.TempDir() // the second attempt alone, in a directory of its own
	alone := attempt(8)
	lines := 0
	for name, data := range second {
		switch {
		case !strings.HasPrefix(name, stagingPrefix+recordsPrefix) || strings.Contains(name, ".tmp-"):
			t.Errorf("%s in the output directory", name)
		case data != alone[name]:
			t.Errorf("%s: not the second attempt's lines", name)
		case data == first[name]:
			t.Errorf("%s: the two attempts' lines are the same (the test cannot fail)", name)
		}
		lines += strings.Count(data, "\n")
	}
	n := strings.Count(b.String(), "\n")
	if want := n - n/3; lines != want {
		t.Errorf("%d lines in the records files, want the %d granted", lines, want)
	}
}

// What a crashed run leaves in its output directory, in this version's
// names or an earlier one's, is accepted there and removed by the next
// run; anything else makes the directory refused.
func TestCleanOutputLeftovers(t *testing.T) {
	dir := t.TempDir()
	rec := recordsName("/in/a.jsonl", 0)
	left := []string{
		stagingPrefix + rec, stagingPrefix + rec + ".tmp-00ff", rec,
		stagingPrefix + "budget-00001-of-00008.jsonl", "budget-00001-of-00008.jsonl",
		stagingPrefix + "records-00003-of-00008.jsonl", "records-00003-of-00008.jsonl.tmp-1a2b", // an earlier version's
		ManifestName + ".tmp-77",
	}
	for _, n := range left {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkOutputDir(t.Context(), dir); err != nil {
		t.Fatalf("a crashed run's files refused: %v", err)
	}
	if err := cleanOutput(t.Context(), dir); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("%d files left after cleaning, first %s", len(ents), ents[0].Name())
	}
	if err := os.WriteFile(filepath.Join(dir, "records-notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := checkOutputDir(t.Context(), dir); err == nil {
		t.Error("a directory with another file accepted")
	}
}
