package imdb

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const fixture = `[{"t":"Great film.<br /><br />Loved it","s":1},
{"t":"Awful, boring.","s":0},{"t":"ok","s":1}]`

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func tgz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, name := range []string{"package/package.json", Member, "package/index.json"} {
		body, ok := files[name]
		if !ok {
			continue
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLoad(t *testing.T) {
	want := []Review{{"Great film.<br /><br />Loved it", 1}, {"Awful, boring.", 0}, {"ok", 1}}
	plain := writeFile(t, "reviews.json", []byte(fixture))
	packed := writeFile(t, "imdb.tgz", tgz(t, map[string]string{"package/package.json": "{}", Member: fixture}))
	for _, p := range []string{plain, packed} {
		got, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v", p, got)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	gz := tgz(t, map[string]string{Member: fixture})
	cases := map[string]struct {
		path string
		want string
	}{
		"missing":    {filepath.Join(t.TempDir(), "nope.json"), "no such file"},
		"corrupt gz": {writeFile(t, "c.tgz", gz[:40]), "unexpected EOF"},
		"bad gz hdr": {writeFile(t, "h.tgz", append([]byte{0x1f, 0x8b}, "garbage-garbage"...)), "gzip"},
		"no member":  {writeFile(t, "n.tgz", tgz(t, map[string]string{"package/package.json": "{}"})), "no package/reviews.json"},
		"bad json":   {writeFile(t, "b.json", []byte(`[{"t":"x","s":1},{"t":`)), "bad JSON"},
		"not array":  {writeFile(t, "o.json", []byte(`{"t":"x"}`)), "want an array"},
		"label":      {writeFile(t, "l.json", []byte(`[{"t":"x","s":2}]`)), "label 2"},
		"no label":   {writeFile(t, "m.json", []byte(`[{"t":"x"}]`)), "no label"},
		"no text":    {writeFile(t, "x.json", []byte(`[{"s":1}]`)), "no text"},
	}
	for name, c := range cases {
		_, err := Load(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to mention %q", name, err, c.want)
		}
	}
	if revs, err := Load(writeFile(t, "e.json", []byte(`[]`))); err != nil || len(revs) != 0 {
		t.Errorf("empty array: %v %v", revs, err)
	}
}

func reviews(n0, n1 int) []Review {
	var rs []Review
	for i := range n0 {
		rs = append(rs, Review{Text: "neg" + string(rune('a'+i%26)) + strings.Repeat("x", i), Label: 0})
	}
	for i := range n1 {
		rs = append(rs, Review{Text: "pos" + strings.Repeat("y", i), Label: 1})
	}
	return rs
}

func TestSplitPaper(t *testing.T) {
	rs := reviews(40, 45)
	orig := append([]Review(nil), rs...)
	s, err := SplitPaper(rs, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rs, orig) {
		t.Error("input modified")
	}
	seen := map[string]bool{}
	for qi, q := range [][]Review{s.TR1, s.TR2, s.TE1, s.TE2} {
		if len(q) != 20 {
			t.Errorf("quarter %d has %d reviews, want 20", qi, len(q))
		}
		pos := 0
		for _, r := range q {
			pos += r.Label
			if seen[r.Text] {
				t.Errorf("review %q in two quarters", r.Text)
			}
			seen[r.Text] = true
		}
		if pos != 10 {
			t.Errorf("quarter %d has %d positive, want 10", qi, pos)
		}
	}
	again, _ := SplitPaper(rs, 7)
	if !reflect.DeepEqual(s, again) {
		t.Error("not deterministic for a seed")
	}
	other, _ := SplitPaper(rs, 8)
	if reflect.DeepEqual(s.TR1, other.TR1) {
		t.Error("seed 8 gives the same TR1 as seed 7")
	}
	if _, err := SplitPaper(reviews(4, 3), 1); err == nil {
		t.Error("7 reviews: no error")
	}
	if _, err := SplitPaper(reviews(8, 3), 1); err == nil {
		t.Error("3 positive reviews: no error")
	}
	if _, err := SplitPaper([]Review{{"a", 0}, {"b", 1}, {"c", 0}, {"d", 1}, {"e", 0}, {"f", 1}, {"g", 0}, {"h", 3}}, 1); err == nil {
		t.Error("label 3: no error")
	}
}

func TestEncode(t *testing.T) {
	// "don’t" is the pieces "do" and "n't", looked up one by one.
	vocab := map[string]int{"great": 0, "film": 1, "do": 2, "loved": 3, "it": 4, "2": 5, "n't": 6}
	lookup := func(k string) (int, bool) { id, ok := vocab[k]; return id, ok }
	got := Encode("Great FILM!<br /><br />Loved it<br/>, don’t br 2 xyzzy", lookup)
	want := []int32{0, 1, 3, 4, 2, 6, -1, 5, -1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Encode = %v, want %v", got, want)
	}
	if got := Encode("", lookup); len(got) != 0 {
		t.Errorf("Encode(\"\") = %v", got)
	}
	f := Frequencies([][]int32{got, {9, -1, 6, 0}}, 7)
	if !reflect.DeepEqual(f, []int64{2, 1, 1, 1, 1, 1, 2}) {
		t.Errorf("Frequencies = %v", f)
	}
}

func TestTextsLabels(t *testing.T) {
	rs := []Review{{"a", 0}, {"b", 1}}
	if !reflect.DeepEqual(Texts(rs), []string{"a", "b"}) || !reflect.DeepEqual(Labels(rs), []int{0, 1}) {
		t.Error("Texts/Labels")
	}
}
