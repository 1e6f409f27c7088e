package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/linereader"
)

// multiBlockInput is n lines of a few words each: with n > 2×blockLines
// the stream cuts it into at least three blocks.
func multiBlockInput(n int) string {
	words := []string{"the", "doctor", "in", "Boston", "says", "treatment", "works", "house", "cat", "river"}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%s %s %s\n", words[i%len(words)], words[(i/3)%len(words)], words[(i/7)%len(words)])
	}
	return b.String()
}

// TestPrivatizeThreadsSeeded: with -seed, the output is the same for every
// -threads, plain and -json, on an input of several blocks (counted).
func TestPrivatizeThreadsSeeded(t *testing.T) {
	in := multiBlockInput(2*blockLines + 500)
	var blocks atomic.Int64
	p := testPrivatizer(t, core.Config{})
	count := func(ctx context.Context, b *block, _ []core.Result) ([]core.Result, error) {
		blocks.Add(1)
		return []core.Result{{Text: strings.Join(b.lines, "")}}, nil
	}
	if err := stream(context.Background(), count, 2, 0, linereader.New(strings.NewReader(in), 1<<20), discard{}, recordEncoder{info: p.Info()}, nil); err != nil {
		t.Fatal(err)
	}
	if blocks.Load() < 3 {
		t.Fatalf("the input makes %d blocks, want ≥ 3", blocks.Load())
	}
	for _, tc := range []struct{ name, mech, format string }{
		{"1dg", "1dg", ""},
		{"1dg -json", "1dg", "-json"},
		{"tem-hamming", "tem-hamming", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first string
			for _, threads := range []int{1, 2, 3, 8} {
				args := []string{"privatize", "-mechanism", tc.mech, "-seed", "5", "-threads", fmt.Sprint(threads)}
				if tc.format != "" {
					args = append(args, tc.format)
				}
				var out, errb bytes.Buffer
				if err := run(args, strings.NewReader(in), &out, &errb); err != nil {
					t.Fatalf("-threads %d: %v (%s)", threads, err, errb.String())
				}
				if threads == 1 {
					first = out.String()
					if n := strings.Count(first, "\n"); n != strings.Count(in, "\n") {
						t.Fatalf("-threads 1: %d lines out, want %d", n, strings.Count(in, "\n"))
					}
					continue
				}
				if out.String() != first {
					t.Errorf("-threads %d: output differs from -threads 1's", threads)
				}
			}
		})
	}
}

// fakeBlocks is a blockFunc that returns each line upper-cased, finishes
// the blocks of the indices in hold only after every later block has
// started (so they finish out of order), fails at block failAt (< 0:
// never) and, once it has failed, waits for every later block's
// cancellation, counting them.
type fakeBlocks struct {
	threads   int
	failAt    int64
	started   atomic.Int64
	cancelled atomic.Int64
	release   chan struct{} // closed when threads blocks have started
	failed    chan struct{} // closed when block failAt has failed
}

func newFakeBlocks(threads int, failAt int64) *fakeBlocks {
	return &fakeBlocks{threads: threads, failAt: failAt, release: make(chan struct{}), failed: make(chan struct{})}
}

func (f *fakeBlocks) privatize(ctx context.Context, b *block, _ []core.Result) ([]core.Result, error) {
	if f.started.Add(1) == int64(f.threads) {
		close(f.release)
	}
	switch i := int64(b.index); {
	case i == f.failAt:
		close(f.failed)
		return nil, errors.New("block failed")
	case f.failAt >= 0 && i > f.failAt:
		<-f.failed
		<-ctx.Done() // the stream must cancel the blocks after a failed one
		f.cancelled.Add(1)
		return nil, ctx.Err()
	case i == 0:
		<-f.release // block 0 finishes last of the first round
	}
	res := make([]core.Result, len(b.lines))
	for j, l := range b.lines {
		res[j].Text = strings.ToUpper(l)
	}
	return res, nil
}

// smallBlocks is input whose blocks are one line each: a reader that
// hands out one line per read, so that no line is buffered when a block
// is cut.
type smallBlocks struct{ lines []string }

func (r *smallBlocks) Read(p []byte) (int, error) {
	if len(r.lines) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.lines[0])
	r.lines[0] = r.lines[0][n:]
	if r.lines[0] == "" {
		r.lines = r.lines[1:]
	}
	return n, nil
}

// TestStreamOrderAndFirstError: blocks that finish out of order are
// written in input order; the first failing block in input order ends the
// stream with its error, everything before it written and nothing after,
// and the blocks running after it are cancelled.
func TestStreamOrderAndFirstError(t *testing.T) {
	const n = 12
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf("line %d\n", i))
	}
	for _, tc := range []struct {
		threads int
		failAt  int64
	}{{1, -1}, {2, -1}, {4, -1}, {1, 5}, {3, 5}, {4, 0}, {4, n - 1}} {
		t.Run(fmt.Sprintf("threads=%d/fail=%d", tc.threads, tc.failAt), func(t *testing.T) {
			f := newFakeBlocks(tc.threads, tc.failAt)
			if tc.threads == 1 {
				close(f.release) // one block at a time: block 0 cannot wait for others
				f.threads = -1
			}
			r := &smallBlocks{lines: append([]string(nil), lines...)}
			var out bytes.Buffer
			err := stream(context.Background(), f.privatize, tc.threads, 0, linereader.New(r, 1<<10), &out, recordEncoder{}, nil)
			want := strings.ToUpper(strings.Join(lines, ""))
			if tc.failAt >= 0 {
				want = strings.ToUpper(strings.Join(lines[:tc.failAt], ""))
				if err == nil || !strings.Contains(err.Error(), "block failed") || !strings.Contains(err.Error(), fmt.Sprintf("lines %d–%d", tc.failAt+1, tc.failAt+1)) {
					t.Errorf("error %v, want block %d's", err, tc.failAt)
				}
				if tc.threads == 1 && f.started.Load() != tc.failAt+1 {
					t.Errorf("-threads 1 started %d blocks after block %d failed", f.started.Load(), tc.failAt)
				}
				if got := f.started.Load() - tc.failAt - 1; f.cancelled.Load() != got {
					t.Errorf("%d blocks after the failed one started, %d cancelled", got, f.cancelled.Load())
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if out.String() != want {
				t.Errorf("output\n%q\nwant\n%q", out.String(), want)
			}
			if f.started.Load() > n {
				t.Errorf("%d blocks started for %d lines", f.started.Load(), n)
			}
		})
	}
}

// TestPrivatizeThreadsCap: with a ledger, every -threads charges, refuses
// and releases what -threads 1 does: a word cap reached inside the second
// block of a seeded run writes the first block only and exits with the
// budget's error, the same output and error for each.
func TestPrivatizeThreadsCap(t *testing.T) {
	in := strings.Repeat("house\n", 2*blockLines+10)
	var first string
	for _, threads := range []int{1, 2, 4} {
		args := []string{"privatize", "-mechanism", "1dg", "-seed", "3", "-threads", fmt.Sprint(threads),
			"-ledger", t.TempDir(), "-state", t.TempDir(), "-cap-words", fmt.Sprint(blockLines + 100)}
		var out, errb bytes.Buffer
		err := run(args, strings.NewReader(in), &out, &errb)
		if !errors.Is(err, errBudget) {
			t.Fatalf("-threads %d: %v, want the budget's error", threads, err)
		}
		if got := strings.Count(out.String(), "\n"); got != blockLines {
			t.Fatalf("-threads %d: %d lines released, want the first block's %d", threads, got, blockLines)
		}
		if threads == 1 {
			first = out.String()
		} else if out.String() != first {
			t.Errorf("-threads %d: output differs from -threads 1's", threads)
		}
	}
}

// TestPrivatizeThreadsUsage: -threads outside [1, maxThreads] is a usage
// error, never a panic or a silent default.
func TestPrivatizeThreadsUsage(t *testing.T) {
	for _, v := range []string{"0", "-1", fmt.Sprint(maxThreads + 1), "1000000", "x"} {
		var out, errb bytes.Buffer
		err := run([]string{"privatize", "-threads", v}, strings.NewReader("house\n"), &out, &errb)
		if !errors.Is(err, errUsage) || out.Len() != 0 {
			t.Errorf("-threads %s: %v, wrote %q; want a usage error and nothing", v, err, out.String())
		}
	}
	for _, v := range []string{"1", fmt.Sprint(maxThreads)} {
		var out, errb bytes.Buffer
		if err := run([]string{"privatize", "-mechanism", "1dg", "-threads", v}, strings.NewReader("house\n"), &out, &errb); err != nil || out.Len() == 0 {
			t.Errorf("-threads %s: %v, wrote %q", v, err, out.String())
		}
	}
}
