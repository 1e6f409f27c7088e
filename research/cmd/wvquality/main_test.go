package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

// writeWinkTgz writes a small synthetic wink package: n words ("w0", "w1",
// …, plus a few the vocabulary filter drops) with clustered vectors.
func writeWinkTgz(t *testing.T, n, dim int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"The", ","}
	for i := 0; len(words) < n; i++ {
		words = append(words, fmt.Sprintf("w%c%c", 'a'+i/26%26, 'a'+i%26))
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"precision":8,"l2NormIndex":%d,"wordIndex":%d,"size":%d,"dimensions":%d,"words":[`, dim, dim+1, len(words), dim)
	for i, w := range words {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q", w)
	}
	b.WriteString(`],"vectors":{`)
	centres := make([][]float64, 10)
	for c := range centres {
		centres[c] = make([]float64, dim)
		for j := range centres[c] {
			centres[c][j] = r.NormFloat64()
		}
	}
	for i, w := range words {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:[", w)
		var sq float64
		for j := 0; j < dim; j++ {
			v := float32(centres[i%10][j] + 0.3*r.NormFloat64())
			sq += float64(v) * float64(v)
			fmt.Fprintf(&b, "%g,", v)
		}
		fmt.Fprintf(&b, "%.8f,%d]", math.Sqrt(sq), i)
	}
	b.WriteString(`}}`)

	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	body := b.String()
	if err := tw.WriteHeader(&tar.Header{Name: binarize.WinkPackageMember, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write([]byte(body)); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "wink.tgz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// -short runs it on 120 words and 10 queries instead of 400 and 30 (every
// section of the report, the tuning grid included, at a sixth of the work:
// the race detector makes the full size take minutes).
func TestRunEndToEnd(t *testing.T) {
	path := writeWinkTgz(t, 420, 8)
	var out, errOut bytes.Buffer
	words, queries := "400", "30"
	if testing.Short() {
		words, queries = "120", "10"
	}
	args := []string{"-wink", path, "-words", words, "-queries", queries, "-depth", "20", "-seeds", "2", "-tune", "-nlb-epochs", "2"}
	if err := run(args, &out, &errOut); err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	report := out.String()
	for _, want := range []string{
		"go run ./research/cmd/wvquality -wink " + path,
		"Kept the first " + words + " words",
		"| recall@10 (± standard error) |",
		"| Spearman (top-20) |",
		"| mean ± sd |",
		"NLB settings: epochs 2",
		"### NLB tuning grid",
		"**best**",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// The same command gives the same report, timings aside.
	var again bytes.Buffer
	if err := run(args, &again, &errOut); err != nil {
		t.Fatal(err)
	}
	if stripTimes(report) != stripTimes(again.String()) {
		t.Error("two runs gave different numbers")
	}
}

// stripTimes drops the lines that carry wall-clock times.
func stripTimes(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "s |") || strings.Contains(l, "Grid run time") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n")
}

func TestParseFlagsErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"no input", nil, "-wink is required"},
		{"bad split", []string{"-wink", "x", "-split", "all"}, "-split"},
		{"no seeds", []string{"-wink", "x", "-seeds", "0"}, "-seeds"},
		{"stray argument", []string{"-wink", "x", "extra"}, "unexpected"},
		{"unknown flag", []string{"-nope"}, "not defined"},
	}
	for _, tc := range tests {
		var errOut bytes.Buffer
		_, err := parseFlags(tc.args, &errOut)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: got %v, want an error about %q", tc.name, err, tc.msg)
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"-wink", filepath.Join(t.TempDir(), "missing.tgz")}, &out, &errOut); err == nil {
		t.Error("a missing input file is not an error")
	}
}
