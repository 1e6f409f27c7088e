package main

import (
	"bytes"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/research/internal/eval/study"
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

// TestEvalIMDBHelpNamesEveryMechanism: 'eval imdb -h' documents every
// default mechanism by name.
func TestEvalIMDBHelpNamesEveryMechanism(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run([]string{"eval", "imdb", "-h"}, &out, &errb); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("eval imdb -h: %v", err)
	}
	help := errb.String()
	for _, name := range study.DefaultMechanisms {
		if !strings.Contains(help, "  "+name+" ") && !strings.Contains(help, " "+name+",") && !strings.Contains(help, ", "+name+" ") {
			t.Errorf("eval imdb -h does not document %q", name)
		}
	}
	if !strings.Contains(help, "-mechanisms") {
		t.Errorf("eval imdb -h lost the flags:\n%s", help)
	}
}
