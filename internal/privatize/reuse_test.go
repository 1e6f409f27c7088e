package privatize

import (
	"context"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
)

// TestReleaseResults: a block that reuses a released result array and
// the pass-1 arrays of the block before (reuse.go) gives what it gives on
// new ones (same seed, same results, nothing left over from the block
// before), with and without word classes; a released array comes back
// zeroed.
func TestReleaseResults(t *testing.T) {
	a := defaultAsset(t)
	brr, _ := mechanism.NewBRR(newIndex(t, a.Codes), 0.5)
	plain, err := New(brr, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	classes, err := NewWithClasses(base1DG(t, a, 1), a, Classes{RareRank: 1000, Rare: 0.5, Capitalized: 0.5, Number: 2}, mechanism.Options{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name          string
		before, block []string
	}{
		{"same size", []string{"the cat\n", "sat on a mat\n"}, []string{"a dog\n", "ran home 42\n"}},
		{"larger before", []string{"one\n", "two\n", "three\n", "four\n", strings.Repeat("the long line ", 200) + "\n"}, []string{"the River\n"}},
		{"smaller before", []string{"x\n"}, []string{"the Cat\n", "sat\n", "on the mat in Boston 1999\n"}},
	}
	for _, c := range cases {
		for name, p := range map[string]*Privatizer{"plain": plain, "classes": classes} {
			t.Run(c.name+"/"+name, func(t *testing.T) {
				runtime.GC() // twice: the pools' items and their victims dropped,
				runtime.GC() // so that want is made on new arrays
				want, err := p.PrivatizeBlock(context.Background(), c.block, seeded.Source(9), nil)
				if err != nil {
					t.Fatal(err)
				}
				want = slices.Clone(want)
				old, err := p.PrivatizeBlock(context.Background(), c.before, seeded.Source(3), nil)
				if err != nil {
					t.Fatal(err)
				}
				ReleaseResults(old)
				got, err := p.PrivatizeBlock(context.Background(), c.block, seeded.Source(9), nil)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("after a release: %+v, want %+v", got, want)
				}
			})
		}
	}
	rs := []Result{{Text: "kept alive?", Accounting: Accounting{Words: 3, Metric: "hamming"}}, {Text: "x"}}
	ReleaseResults(rs)
	ReleaseResults(nil) // nothing to hand back
	for _, r := range results(2) {
		if !reflect.DeepEqual(r, Result{}) {
			t.Fatalf("a released array came back with %+v", r)
		}
	}
}
