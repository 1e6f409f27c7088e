package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalPlaneErrors(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"eval", "plane", "-runs", "0"}, {"eval", "plane", "-test", "0"}, {"eval", "plane", "-seeds", "0"},
	} {
		var out, errb bytes.Buffer
		if err := run(append(args, "-results", filepath.Join(dir, "r.jsonl")), &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("%v: err = %v, want a usage error", args, err)
		}
	}
	var out, errb bytes.Buffer
	err := run([]string{"eval", "plane", "-imdb", filepath.Join(dir, "none.tgz"), "-results", filepath.Join(dir, "r.jsonl")}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "make eval-data") {
		t.Errorf("eval plane without data: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "r.jsonl")); err == nil {
		t.Error("eval plane without data wrote results")
	}
}

// TestEvalPlaneReportWithoutResults: the page says so, and draws no
// figure.
func TestEvalPlaneReportWithoutResults(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if err := run([]string{"eval", "plane-report", "-results", filepath.Join(dir, "none.jsonl"), "-bounds", "", "-out", dir}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "PLANE.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(md, []byte("No results for this asset's presets yet")) {
		t.Errorf("PLANE.md without results:\n%s", md)
	}
	if strings.TrimSpace(out.String()) != filepath.Join(dir, "PLANE.md") {
		t.Errorf("wrote %q", out.String())
	}
}
