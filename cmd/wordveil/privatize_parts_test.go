package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/linereader"
)

// TestStreamParts: blocks cut into parts are written whole and in input
// order, each line once, whatever the part size and thread count (parts
// of one line, of a few, larger than the blocks); a failing part fails
// its block with its error, everything before the block written and
// nothing of it or after; and a part whose results do not match its lines
// fails its block too.
func TestStreamParts(t *testing.T) {
	var sb strings.Builder
	for i := range 2*blockLines + 500 {
		fmt.Fprintf(&sb, "line %d of the input\n", i)
	}
	in := sb.String()
	want := strings.ToUpper(in)
	lines := strings.SplitAfter(in, "\n")
	lines = lines[:len(lines)-1]
	failLine := blockLines + 10 // in the second block at least (each line is distinct)
	for _, tc := range []struct {
		threads, part int
		fail          string // "": none; "error" or "short": the part holding failLine
	}{
		{2, 1, ""}, {2, 7, ""}, {3, 256, ""}, {4, 100000, ""}, {8, 3, ""},
		{2, 7, "error"}, {4, 256, "error"}, {3, 5, "short"},
	} {
		t.Run(fmt.Sprintf("threads=%d/part=%d/fail=%s", tc.threads, tc.part, tc.fail), func(t *testing.T) {
			var calls, partsCut atomic.Int64
			upper := func(ctx context.Context, b *block, dst []core.Result) ([]core.Result, error) {
				calls.Add(1)
				if len(b.lines) <= tc.part {
					partsCut.Add(1)
				}
				for _, l := range b.lines {
					if tc.fail != "" && l == lines[failLine] {
						if tc.fail == "short" {
							return dst, nil
						}
						return dst, errors.New("part failed")
					}
					dst = append(dst, core.Result{Text: strings.ToUpper(l)})
				}
				return dst, nil
			}
			var out bytes.Buffer
			err := stream(context.Background(), upper, tc.threads, tc.part, linereader.New(strings.NewReader(in), 1<<20), &out, recordEncoder{}, nil)
			if tc.fail == "" {
				if err != nil {
					t.Fatal(err)
				}
				if out.String() != want {
					t.Fatalf("output differs from the input upper-cased (%d bytes, want %d)", out.Len(), len(want))
				}
				if calls.Load() < 3 || partsCut.Load() == 0 {
					t.Errorf("%d calls, %d of at most %d lines", calls.Load(), partsCut.Load(), tc.part)
				}
				return
			}
			wantErr := "part failed"
			if tc.fail == "short" {
				wantErr = errPartResults.Error()
			}
			if err == nil || !strings.Contains(err.Error(), wantErr) {
				t.Fatalf("error %v, want %q", err, wantErr)
			}
			// What was written is whole blocks before the failed one.
			got := out.String()
			if !strings.HasPrefix(want, got) || !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") > failLine {
				t.Errorf("wrote %d lines, want whole blocks before line %d", strings.Count(got, "\n"), failLine+1)
			}
		})
	}
}

// TestPrivatizeParts: unseeded runs cut their blocks into parts on
// several threads; every line comes out, with its words counted as
// sequentially (the -json records' words, line by line).
func TestPrivatizeParts(t *testing.T) {
	in := multiBlockInput(2*blockLines + 500)
	words := func(threads string) []string {
		var out, errb bytes.Buffer
		if err := run([]string{"privatize", "-mechanism", "1dg", "-json", "-threads", threads}, strings.NewReader(in), &out, &errb); err != nil {
			t.Fatalf("-threads %s: %v (%s)", threads, err, errb.String())
		}
		var ws []string
		for _, rec := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			i := strings.Index(rec, `"words":`)
			if i < 0 {
				t.Fatalf("-threads %s: a record without words: %s", threads, rec)
			}
			ws = append(ws, rec[i:i+len(`"words":`)+2])
		}
		return ws
	}
	one := words("1")
	if len(one) != strings.Count(in, "\n") {
		t.Fatalf("-threads 1: %d records, want %d", len(one), strings.Count(in, "\n"))
	}
	for _, threads := range []string{"2", "3"} {
		if got := words(threads); fmt.Sprint(got) != fmt.Sprint(one) {
			t.Errorf("-threads %s: words per line differ from -threads 1's", threads)
		}
	}
}
