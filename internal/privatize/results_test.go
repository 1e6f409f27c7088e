package privatize

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
)

// TestReleaseResults: a block that reuses a released result array gives
// what it gives on a new one (same seed, same results, nothing left over
// from the released block), and a released array comes back zeroed.
func TestReleaseResults(t *testing.T) {
	a := defaultAsset(t)
	brr, _ := mechanism.NewBRR(newIndex(t, a.Codes), 0.5)
	p, err := New(brr, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name          string
		before, block []string
	}{
		{"same size", []string{"the cat\n", "sat on a mat\n"}, []string{"a dog\n", "ran home 42\n"}},
		{"larger before", []string{"one\n", "two\n", "three\n", "four\n"}, []string{"the river\n"}},
		{"smaller before", []string{"x\n"}, []string{"the cat\n", "sat\n", "on the mat\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
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
	rs := []Result{{Text: "kept alive?", Accounting: Accounting{Words: 3, Metric: "hamming"}}, {Text: "x"}}
	ReleaseResults(rs)
	ReleaseResults(nil) // nothing to hand back
	for _, r := range results(2) {
		if !reflect.DeepEqual(r, Result{}) {
			t.Fatalf("a released array came back with %+v", r)
		}
	}
}
