package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestEvalErrors(t *testing.T) {
	for _, args := range [][]string{
		{"eval"}, {"eval", "frobnicate"}, {"eval", "imdb", "-eps", "0"}, {"eval", "imdb", "-eps", "x"},
	} {
		var out, errb bytes.Buffer
		if err := run(args, &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("wordveil %v: err = %v, want a usage error", args, err)
		}
	}
	// Missing data: a clear error that says how to get it, nothing written.
	dir := t.TempDir()
	for _, sub := range []string{"imdb", "empirical"} {
		var out, errb bytes.Buffer
		args := []string{"eval", sub, "-floats", filepath.Join(dir, "none.wva"), "-results", filepath.Join(dir, "r.jsonl")}
		if sub == "empirical" {
			args = []string{"eval", sub, "-floats", filepath.Join(dir, "none.wva"), "-out", filepath.Join(dir, "e.jsonl")}
		}
		err := run(args, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), "make eval-data") {
			t.Errorf("eval %s without data: %v", sub, err)
		}
	}
	var out, errb bytes.Buffer
	if err := run([]string{"eval", "report", "-results", filepath.Join(dir, "none.jsonl"), "-out", dir}, &out, &errb); err == nil {
		t.Error("eval report without results succeeded")
	}
}
