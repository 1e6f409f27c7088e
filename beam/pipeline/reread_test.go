package pipeline

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
)

// readSlots runs readFn on path and returns every slot by segment key as
// the re-read gets them when the records at the lines grant says are
// granted: the segment markers, then the grants.
func readSlots(t *testing.T, path string, grant func(line int64) bool) map[string][]slot {
	t.Helper()
	rfn := &readFn{Format: FormatJSONL, MaxRecordBytes: 1 << 10}
	if err := rfn.Setup(); err != nil {
		t.Fatal(err)
	}
	defer rfn.Teardown()
	groups := map[string][]slot{}
	var granted []slot
	err := rfn.ProcessElement(context.Background(), fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path}},
		func(user string, g grants) {
			for _, r := range g.Refs {
				if grant(r.Line) {
					granted = append(granted, slot{User: user, Line: r.Line, Offset: r.Offset, Sum: r.Sum, Index: r.Index, Words: r.Words, Cost: r.Cost})
				}
			}
		},
		func(k string, b slotBatch) { groups[k] = append(groups[k], b.Slots...) })
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range granted {
		k := segmentKey(path, g.Offset)
		groups[k] = append(groups[k], g)
	}
	return groups
}

// reread runs privatizeFn on every group, then seqRereadFn on the
// segments of each file that cannot seek, as the pipeline does, and
// returns the records files' lines (in the files' name order), or the
// first error.
func reread(t *testing.T, groups map[string][]slot, overCap string) ([]Output, error) {
	t.Helper()
	return rereadWith(t, groups, overCap, nil)
}

// rereadWith is reread with the sequential files' segments given to
// alter (when not nil) between the two stages.
func rereadWith(t *testing.T, groups map[string][]slot, overCap string, alter func(map[string][]segmentBits)) ([]Output, error) {
	t.Helper()
	dir := t.TempDir()
	cfg := privatizeFn{Format: FormatJSONL, MaxRecordBytes: 1 << 10, Seed: 7, OverCap: overCap, Placeholder: "[withheld]", Dir: dir, Parallelism: 2}
	pfn, sfn := &cfg, &seqRereadFn{P: cfg}
	for _, fn := range []interface{ Setup() error }{pfn, sfn} {
		if err := fn.Setup(); err != nil {
			t.Fatal(err)
		}
	}
	defer pfn.Teardown()
	defer sfn.Teardown()
	lines := 0
	written := func(k, n int) {
		if k != recordsWritten || n < 1 {
			t.Errorf("written(%d, %d)", k, n)
		}
		lines += n
	}
	// out reads the records files back, checking there are no others and
	// that they have as many lines as the DoFns said (after an error:
	// that nothing is left but the files of segments that completed).
	out := func(err error) ([]Output, error) {
		t.Helper()
		names, gerr := filepath.Glob(filepath.Join(dir, "*"))
		if gerr != nil {
			t.Fatal(gerr)
		}
		for _, n := range names {
			if b := filepath.Base(n); !strings.HasPrefix(b, stagingPrefix) || !outputFile.MatchString(strings.TrimPrefix(b, stagingPrefix)) || strings.Contains(b, ".tmp-") {
				t.Errorf("%s in the output directory", b)
			}
		}
		outs := readJSONL[Output](t, dir, stagingPrefix+recordsPrefix)
		if len(outs) != lines {
			t.Errorf("%d lines in the records files, %d written", len(outs), lines)
		}
		return outs, err
	}
	seq := map[string][]segmentBits{}
	emitSeq := func(path string, b segmentBits) {
		b = decodeOrFail(t, encodeSegmentBits(b), decodeSegmentBits) // as it crosses the shuffle
		seq[path] = append(seq[path], b)
	}
	ctx := context.Background()
	for k, g := range groups {
		if err := pfn.ProcessElement(ctx, k, iterOf(g, func(s slot) slotBatch { return slotBatch{Slots: []slot{s}} }), written, emitSeq); err != nil {
			return out(err)
		}
	}
	if alter != nil {
		alter(seq)
	}
	for path, segs := range seq {
		if err := sfn.ProcessElement(ctx, path, iterOf(segs, func(b segmentBits) segmentBits { return b }), written); err != nil {
			return out(err)
		}
	}
	return out(nil)
}

// iterOf is a Beam iterator over xs, each as elem makes it.
func iterOf[T, E any](xs []T, elem func(T) E) func(*E) bool {
	i := 0
	return func(e *E) bool {
		if i == len(xs) {
			return false
		}
		*e, i = elem(xs[i]), i+1
		return true
	}
}

// decodeOrFail decodes p, failing the test on an error.
func decodeOrFail[T any](t *testing.T, p []byte, dec func([]byte) (T, error)) T {
	t.Helper()
	v, err := dec(p)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The re-read finds every granted record again, in files of several
// segments, and fails the run, naming the file and line, when the input
// changed between the read and the re-read: a line edited (even one byte,
// the same length), a line inserted before it, the file cut short. The
// same for a gzip-compressed file, re-read sequentially: the error then
// names the segment's lines (its digest names no single line).
func TestRereadChecksTheInput(t *testing.T) {
	var b strings.Builder
	n := 0
	for b.Len() < 2*segmentBytes+1000 { // three segments
		n++
		fmt.Fprintf(&b, "{\"user\":\"u%d\",\"text\":\"the cat sat on mat number %d\"}\n", n%7, n)
		if n%1000 == 0 {
			b.WriteString("\n") // a blank line: not a record
		}
	}
	orig := b.String()
	want := map[string]int{OverCapPlaceholder: n} // records out
	for l := int64(1); l <= int64(n+n/1000); l++ {
		if l%10 == 4 && l%1001 != 0 { // line 1001·k is blank
			want[OverCapDrop]++
		}
	}
	cases := []struct {
		name            string
		edit            func(string) string
		failAt, failSeq string // "" : no error; failSeq for the gzip file
	}{
		{"unchanged", func(s string) string { return s }, "", ""},
		{"one byte of a text", func(s string) string { return strings.Replace(s, "number 5000\"}", "number 5001\"}", 1) }, "line 5004 changed", "lines 1-"},
		{"a line inserted", func(s string) string { return "{\"user\":\"x\",\"text\":\"new\"}\n" + s }, "changed during the run", "changed during the run"},
		{"the user", func(s string) string {
			return strings.Replace(s, "\"u4\",\"text\":\"the cat sat on mat number 4\"", "\"u3\",\"text\":\"the cat sat on mat number 4\"", 1)
		}, "line 4 changed", "lines 1-"},
		{"cut short", func(s string) string { return s[:len(s)-500] }, "changed during the run", "changed during the run"},
	}
	for _, tc := range cases {
		for _, file := range []string{"in.jsonl", "in.jsonl.gz"} {
			for _, overCap := range []string{OverCapDrop, OverCapPlaceholder} {
				t.Run(tc.name+"/"+file+"/"+overCap, func(t *testing.T) {
					failAt := tc.failAt
					if file == "in.jsonl.gz" {
						failAt = tc.failSeq
					}
					rereadEdited(t, file, orig, tc.edit, overCap, failAt, want[overCap])
				})
			}
		}
	}
}

// rereadEdited writes orig to a new file named name (gzip-compressed when
// it ends in .gz), reads it, writes edit(orig) in its place and re-reads
// it: the re-read must fail naming the file and failAt, or, failAt "",
// give out records.
func rereadEdited(t *testing.T, name, orig string, edit func(string) string, overCap, failAt string, out int) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	writeInput(t, path, orig)
	// Privatizing is the slow part: one record in ten is granted, the
	// edited ones among them.
	groups := readSlots(t, path, func(line int64) bool { return line%10 == 4 })
	if len(groups) != 3 {
		t.Fatalf("%d segments, want 3", len(groups))
	}
	writeInput(t, path, edit(orig))
	got, err := reread(t, groups, overCap)
	switch {
	case failAt == "" && err != nil:
		t.Fatal(err)
	case failAt == "" && len(got) != out:
		t.Fatalf("%d records out, want %d", len(got), out)
	case failAt != "" && (err == nil || !strings.Contains(err.Error(), failAt) || !strings.Contains(err.Error(), path)):
		t.Fatalf("error %v, want one naming %s and %q", err, path, failAt)
	}
}

// writeInput writes s to path, gzip-compressed when path ends in .gz.
func writeInput(t testing.TB, path, s string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	var w io.Writer = f
	z := gzip.NewWriter(f)
	if strings.HasSuffix(path, ".gz") {
		w = z
	}
	if _, err := io.WriteString(w, s); err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(path, ".gz") {
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// With nothing granted, the re-read writes a placeholder for every record
// of the segment (and nothing without placeholders), at its own line.
func TestRereadPlaceholders(t *testing.T) {
	for _, name := range []string{"in.jsonl", "in.jsonl.gz"} {
		t.Run(name, func(t *testing.T) { rereadPlaceholders(t, name) })
	}
}

func rereadPlaceholders(t *testing.T, name string) {
	path := filepath.Join(t.TempDir(), name)
	in := "{\"user\":\"a\",\"text\":\"one\"}\n\nnot json\n{\"user\":\"b\",\"text\":\"\"}\n{\"user\":\"a\",\"text\":\"three\"}"
	writeInput(t, path, in)
	rfn := &readFn{Format: FormatJSONL, MaxRecordBytes: 1 << 10, SkipMalformed: true}
	if err := rfn.Setup(); err != nil {
		t.Fatal(err)
	}
	defer rfn.Teardown()
	groups := map[string][]slot{}
	if err := rfn.ProcessElement(context.Background(), fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path}},
		func(string, grants) {}, func(k string, b slotBatch) { groups[k] = append(groups[k], b.Slots...) }); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		overCap string
		want    []string // user@line
	}{{OverCapDrop, nil}, {OverCapPlaceholder, []string{"a@1", "b@4", "a@5"}}} {
		out, err := reread(t, groups, tc.overCap)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range out {
			got = append(got, fmt.Sprintf("%s@%d", l.User, l.Line))
			if l.Status != StatusWithheld {
				t.Errorf("%s: %+v", tc.overCap, l)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v, want %v", tc.overCap, got, tc.want)
		}
	}
}
