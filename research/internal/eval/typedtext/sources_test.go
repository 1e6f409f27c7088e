package typedtext

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/research/internal/eval/imdb"
)

// writeTgz writes an npm-style tarball of members (name -> content) to
// dir/name.
func writeTgz(t *testing.T, dir, name string, members map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	names := make([]string, 0, len(members))
	for n := range members {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		body := members[n]
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
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
	if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fakeReviews are eight made-up reviews, four of each label, so that
// SplitPaper puts two in each quarter.
var fakeReviews = []imdb.Review{
	{Text: "A wonderful little film.<br />The cast shines in every single scene of the second act.", Label: 1},
	{Text: "Loved it. My kids watched it twice in one weekend and asked for more.", Label: 1},
	{Text: "Great soundtrack and a clever script that never talks down to its audience.", Label: 1},
	{Text: "Best comedy of the year, hands down, and I do not say that lightly.", Label: 1},
	{Text: "Dull. The director seems to have forgotten that a story needs an ending.", Label: 0},
	{Text: "It wasn't worth it. Two hours of my life that I will never get back.", Label: 0},
	{Text: "Wooden acting, a plot full of holes and a twist you can see coming.", Label: 0},
	{Text: "Avoid this one unless you enjoy watching paint dry on a rainy afternoon.", Label: 0},
}

func fakeCache(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	raw := make([]map[string]any, len(fakeReviews))
	for i, r := range fakeReviews {
		raw[i] = map[string]any{"t": r.Text, "s": r.Label}
	}
	js, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	writeTgz(t, dir, imdbFile, map[string]string{imdb.Member: string(js)})
	writeTgz(t, dir, brownFile, map[string]string{
		"package/ca01":     readFixture(t, "brown_c_fixture"),
		"package/cr09":     "\tShe/pps left/vbd the/at house/nn early/rb ./.\n",
		"package/README":   "not/a sentence/file\n",
		"package/cats.txt": "ca01 news\n",
	})
	heldOutDoc := `[
  "ok lor, c u there",
  "Honestly, my kids watched it twice in one weekend and asked for more!!",
  "she left the house early",
  "   ",
  "lol thx ur the best",
  "yes"
]`
	writeTgz(t, dir, nlpFile, map[string]string{
		"package/builds/doc-0.json":  heldOutDoc,
		"package/builds/doc-1.json":  readFixture(t, "nlp-doc.json"),
		"package/builds/doc-30.json": `["reserve sentence never read"]`,
		"package/README.md":          "# not read",
	})
	writeTgz(t, dir, subtlexFile, map[string]string{subtlexMember: readFixture(t, "subtlex.json")})
	writeTgz(t, dir, cussFile, map[string]string{cussMember: readFixture(t, "cuss-index.js")})
	return dir
}

type sourced struct{ source, doc string }

func TestInduction(t *testing.T) {
	dir := fakeCache(t)
	var got []sourced
	if err := Induction(dir, func(s, d string) error { got = append(got, sourced{s, d}); return nil }); err != nil {
		t.Fatal(err)
	}
	sp, err := imdb.SplitPaper(slices.Clone(fakeReviews), studySeed)
	if err != nil {
		t.Fatal(err)
	}
	var want []sourced
	for _, r := range sp.TR1 {
		want = append(want, sourced{SourceIMDBTrain, imdb.Clean(r.Text)})
	}
	want = append(want,
		sourced{SourceBrown, `The cat said " hi " .`},
		sourced{SourceBrown, `It wasn't 1 , ok ?`},
		sourced{SourceBrown, `She left the house early .`})
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// Negative control: no review of the other three quarters is yielded.
	for _, q := range [][]imdb.Review{sp.TR2, sp.TE1, sp.TE2} {
		for _, r := range q {
			if slices.Contains(got, sourced{SourceIMDBTrain, imdb.Clean(r.Text)}) {
				t.Errorf("review outside TR1 yielded: %q", r.Text)
			}
		}
	}
}

func TestHeldOut(t *testing.T) {
	dir := fakeCache(t)
	var got []sourced
	dropped, err := heldOut(dir, func(s, d string) error { got = append(got, sourced{s, d}); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := []sourced{
		{SourceNLPCorpus, "ok lor, c u there"},
		// "Honestly, my kids …" shares 8 words with an IMDB review: dropped.
		// "she left the house early" is a Brown sentence: dropped.
		{SourceNLPCorpus, "lol thx ur the best"},
		{SourceNLPCorpus, "yes"},
		{SourceNLPCorpus, "ok lor, c u there"},
		{SourceNLPCorpus, "Could you pick up the milk on your way home?"},
		{SourceNLPCorpus, "lol thx ur the best"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	if dropped != 2 {
		t.Fatalf("dropped %d, want 2", dropped)
	}
}

func TestRankingAndOffensive(t *testing.T) {
	dir := fakeCache(t)
	r, err := Ranking(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []WordFreq{{"you", 50}, {"i", 42}, {"lol", 7}, {"okay", 7}}; !slices.Equal(r, want) {
		t.Fatalf("Ranking = %v, want %v", r, want)
	}
	o, err := Offensive(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(o) != 4 || o[1] != (Profane{"blorp blorp", 2}) {
		t.Fatalf("Offensive = %v", o)
	}
}

func TestSourceErrors(t *testing.T) {
	empty := t.TempDir()
	nop := func(string, string) error { return nil }
	for name, err := range map[string]error{
		"Ranking":   func() error { _, err := Ranking(empty); return err }(),
		"Offensive": func() error { _, err := Offensive(empty); return err }(),
		"Induction": Induction(empty, nop),
		"HeldOut":   HeldOut(empty, nop),
	} {
		if !errors.Is(err, ErrMissing) {
			t.Errorf("%s on an empty cache: err = %v, want ErrMissing", name, err)
		}
	}
	if err := HeldOut("", nop); !errors.Is(err, ErrArgument) {
		t.Errorf("empty cache dir: err = %v", err)
	}
	if err := Induction(empty, nil); !errors.Is(err, ErrArgument) {
		t.Errorf("nil callback: err = %v", err)
	}

	// A corrupt tarball is ErrFormat, with the path named once and the
	// package prefix once.
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, subtlexFile), []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Ranking(bad)
	if !errors.Is(err, ErrFormat) || strings.Count(err.Error(), "typedtext:") != 1 || !strings.Contains(err.Error(), subtlexFile) {
		t.Errorf("corrupt tarball: err = %v", err)
	}
	// A tarball without the member is ErrFormat too.
	writeTgz(t, bad, cussFile, map[string]string{"package/other.js": ""})
	if _, err := Offensive(bad); !errors.Is(err, ErrFormat) {
		t.Errorf("no member: err = %v", err)
	}

	// The callback's own error comes back unchanged and stops the walk.
	dir := fakeCache(t)
	stop := errors.New("stop")
	n := 0
	err = HeldOut(dir, func(string, string) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("callback error: err = %v after %d calls, want stop after 1", err, n)
	}
}

func FuzzWalkTgz(f *testing.F) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	tw.WriteHeader(&tar.Header{Name: "package/a", Size: 2, Mode: 0o644, Typeflag: tar.TypeReg})
	tw.Write([]byte("hi"))
	tw.Close()
	zw.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("not gzip"))
	f.Fuzz(func(t *testing.T, in []byte) {
		errRead := errors.New("member read")
		err := walkTgz(bytes.NewReader(in), func(string) bool { return true }, func(_ string, r io.Reader) error {
			if _, err := io.Copy(io.Discard, r); err != nil {
				return errors.Join(errRead, err)
			}
			return nil
		})
		if err != nil && !errors.Is(err, ErrFormat) && !errors.Is(err, errRead) {
			t.Fatalf("error %v is neither ErrFormat nor the callback's", err)
		}
	})
}
