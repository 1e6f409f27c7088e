package pipeline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/core"
)

// threeSegments is an input of three segments, every record of the same
// shape, and its record count.
func threeSegments() (string, int) {
	var b strings.Builder
	n := 0
	for b.Len() < 2*segmentBytes+1000 {
		n++
		fmt.Fprintf(&b, "{\"user\":\"u%d\",\"text\":\"the cat sat on mat number %d\"}\n", n%7, n)
	}
	return b.String(), n
}

// readFn marks the segments of a file that cannot seek (here a gzip one)
// for the sequential re-read, with the digest of their records, and those
// of a file that can seek not.
func TestMarkersSayWhetherTheFileSeeks(t *testing.T) {
	in, _ := threeSegments()
	dir := t.TempDir()
	for _, name := range []string{"in.jsonl", "in.jsonl.gz"} {
		path := filepath.Join(dir, name)
		writeInput(t, path, in)
		seq := strings.HasSuffix(name, ".gz")
		markers := 0
		for _, slots := range readSlots(t, path, func(int64) bool { return false }) {
			for _, s := range slots {
				markers++
				if !s.Marker || s.Seq != seq || (s.Sum != lineChecksum{}) != seq {
					t.Errorf("%s: marker %+v (want Seq %v, with a digest exactly then)", name, s, seq)
				}
			}
		}
		if markers != 3 {
			t.Errorf("%s: %d markers, want 3", name, markers)
		}
	}
}

// The sequential re-read fails closed on anything but the segments and
// grants the run made: a grant that is not a record of its segment, a
// segment missing, twice or altered (its bits, its digests), which no
// runner gives it and which a changed input would look like.
func TestSequentialRereadFailsClosed(t *testing.T) {
	in, _ := threeSegments()
	path := filepath.Join(t.TempDir(), "in.jsonl.gz")
	writeInput(t, path, in)
	grant := func(line int64) bool { return line%10 == 4 }
	// sorted returns the file's segments in file order.
	sorted := func(m map[string][]segmentBits) []segmentBits {
		s := m[path]
		slices.SortFunc(s, func(a, b segmentBits) int { return cmp.Compare(a.Offset, b.Offset) })
		return s
	}
	cases := []struct {
		name   string
		grants func(map[string][]slot)
		segs   func(map[string][]segmentBits)
		want   string
	}{
		{name: "unchanged"},
		{name: "a grant past its segment's records", grants: func(g map[string][]slot) {
			for k, slots := range g {
				for i := range slots {
					if !slots[i].Marker {
						slots[i].Index = 1 << 20
					}
				}
				g[k] = slots
			}
		}, want: "not a record of its segment"},
		{name: "a grant twice", grants: func(g map[string][]slot) {
			for k, slots := range g {
				for _, s := range slots {
					if !s.Marker {
						g[k] = append(slots, s)
						break
					}
				}
			}
		}, want: "not a record of its segment"},
		{name: "a segment missing", segs: func(m map[string][]segmentBits) {
			s := sorted(m)
			m[path] = append(s[:1], s[2:]...)
		}, want: "a record where none was"},
		{name: "the last segment missing", segs: func(m map[string][]segmentBits) { m[path] = sorted(m)[:2] }, want: "a record where none was"},
		{name: "a segment twice", segs: func(m map[string][]segmentBits) { m[path] = append(m[path], m[path][1]) }, want: "twice"},
		{name: "a bit set", segs: func(m map[string][]segmentBits) { sorted(m)[1].Bits[0] |= 1 }, want: "charge differs"},
		{name: "a bit cleared", segs: func(m map[string][]segmentBits) {
			b := sorted(m)[0].Bits
			b[slices.IndexFunc(b, func(x byte) bool { return x != 0 })] = 0
		}, want: "charge differs"},
		{name: "bits cut short", segs: func(m map[string][]segmentBits) { s := sorted(m); s[2].Bits = s[2].Bits[:len(s[2].Bits)-1] }, want: "malformed segment"},
		{name: "a digest altered", segs: func(m map[string][]segmentBits) { sorted(m)[1].Digest[3] ^= 1 }, want: "a record of the segment differs"},
		{name: "the grants' digest altered", segs: func(m map[string][]segmentBits) { sorted(m)[2].Grants[0] ^= 1 }, want: "charge differs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			groups := readSlots(t, path, grant)
			if tc.grants != nil {
				tc.grants(groups)
			}
			out, err := rereadWith(t, groups, OverCapDrop, tc.segs)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want == "" && len(out) == 0:
				t.Fatal("no records out")
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// A gzip-compressed input, re-read sequentially, gives what the same input
// uncompressed gives on the seekable path, with a seed, a cap that
// withholds records and placeholders: the same counters (in the manifest
// too), the same budget files byte for byte, and the same record files
// line for line (user, line, status, words, charges, placeholders). A
// record's seeded stream is keyed by its file's path (RecordSeed), which
// differs between the two inputs: each released text is checked to be the
// engine's output with its own record's seed.
func TestGzipInputEqualsUncompressed(t *testing.T) {
	words := 600_000 // some 4 MB: four segments
	if testing.Short() {
		words = 300_000
	}
	dir := t.TempDir()
	plainDir, gzDir := filepath.Join(dir, "plain"), filepath.Join(dir, "gz")
	for _, d := range []string{plainDir, gzDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := genCorpus(t, plainDir, words, 300, 1, 5)
	in, err := os.ReadFile(c.files[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(in) < 2*segmentBytes {
		t.Fatalf("%d bytes of input: fewer than three segments", len(in))
	}
	gzPath := filepath.Join(gzDir, "part-00.jsonl.gz")
	writeInput(t, gzPath, string(in))
	const seed = 31
	opts := func(in, out string) Options {
		return Options{Input: filepath.Join(in, "*"), Output: filepath.Join(dir, out), Seed: seed, CapWords: 150, Shards: 3,
			OverCap: OverCapPlaceholder, Placeholder: "[withheld]"}
	}
	plain, gz := opts(plainDir, "out-plain"), opts(gzDir, "out-gz")
	cp, cg := run(t, plain), run(t, gz)
	t.Logf("%d bytes of input; counts %+v", len(in), cp)
	if cp != cg || cp.Released == 0 || cp.Withheld == 0 {
		t.Fatalf("counts %+v uncompressed, %+v gzip (want equal, with records released and withheld)", cp, cg)
	}
	for _, o := range []Options{plain, gz} {
		var m Manifest
		b, err := os.ReadFile(filepath.Join(o.Output, ManifestName))
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		if err != nil || m.Counts != cp {
			t.Errorf("%s: manifest counts %+v, %v; want %+v", o.Output, m.Counts, err, cp)
		}
	}
	// A records file is named by its input's path and its segment: the
	// two runs' files are paired by segment.
	bySegment := func(files map[string][]byte) map[string][]byte {
		m := map[string][]byte{}
		for name, b := range files {
			if strings.HasPrefix(name, recordsPrefix) {
				name = recordsPrefix + name[strings.LastIndexByte(name, '-'):]
			}
			m[name] = b
		}
		return m
	}
	pb, gb := bySegment(dirBytes(t, plain.Output)), bySegment(dirBytes(t, gz.Output))
	segments := (len(in) + segmentBytes - 1) / segmentBytes // each with a file: placeholders
	if len(pb) != len(gb) || len(pb) != opts("", "").Shards+segments {
		t.Fatalf("%d files uncompressed, %d gzip", len(pb), len(gb))
	}
	texts := map[int64]string{}
	for _, r := range c.records {
		texts[r.Line] = r.Text
	}
	p, err := openEngine(Engine{}, DefaultMaxRecordBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for name, b := range pb {
		if strings.HasPrefix(name, budgetPrefix) {
			if !bytes.Equal(b, gb[name]) {
				t.Errorf("%s differs", name)
			}
			continue
		}
		po, gzo := outputsOf(t, b), outputsOf(t, gb[name])
		if len(po) != len(gzo) {
			t.Fatalf("%s: %d lines uncompressed, %d gzip", name, len(po), len(gzo))
		}
		for i := range po {
			a, g := po[i], gzo[i]
			if a.Source != c.files[0] || g.Source != gzPath {
				t.Fatalf("%s line %d: sources %s and %s", name, i+1, a.Source, g.Source)
			}
			if g.Status == StatusReleased {
				if err := core.UseEvaluationSeed(p, RecordSeed(seed, g.User, g.Source, g.Line)); err != nil {
					t.Fatal(err)
				}
				want, err := p.Privatize(texts[g.Line])
				if err != nil {
					t.Fatal(err)
				}
				if g.Text != want.Text {
					t.Errorf("%s line %d: %q, want %q (the record's own seeded stream)", name, g.Line, g.Text, want.Text)
				}
			}
			if a.Status == StatusReleased {
				a.Text, g.Text = "", "" // checked above
			}
			if ka, kg := outputKey(a), outputKey(g); ka != kg {
				t.Errorf("%s line %d: %s uncompressed, %s gzip", name, i+1, ka, kg)
			}
		}
	}
}

// outputsOf decodes a record file's lines.
func outputsOf(t *testing.T, b []byte) []Output {
	t.Helper()
	var out []Output
	for _, l := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var o Output
		if err := json.Unmarshal(l, &o); err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

// outputKey is o without its source: its fields, the charges by value.
func outputKey(o Output) string {
	f := func(x *float64) string {
		if x == nil {
			return "null"
		}
		return fmt.Sprint(*x)
	}
	return fmt.Sprintf("%s@%d %s %q words %d oov %d ε %s loss %s", o.User, o.Line, o.Status, o.Text, o.Words, o.OOV, f(o.TotalEpsilon), f(o.UnitFree))
}
