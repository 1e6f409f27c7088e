package pipeline

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
