package core_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"reflect"
	"testing"

	"github.com/wordveil/wordveil/core"
)

// AppendBlock and AppendEvaluationBlock append to dst exactly what
// PrivatizeBlock and PrivatizeEvaluationBlock return, whether dst is nil,
// has elements to keep, or is a used array passed back as dst[:0]; an
// error appends nothing and returns dst.
func TestAppendBlock(t *testing.T) {
	ctx := context.Background()
	p, err := core.Open(core.Config{Mechanism: core.OneDG, Classes: core.Classes{Capitalized: 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	texts := []string{"the doctor in Boston", "says the treatment works", "a cat"}
	want, err := core.PrivatizeEvaluationBlock(ctx, p, texts, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	used, err := core.PrivatizeEvaluationBlock(ctx, p, []string{"other words", "of another", "block", "longer"}, 8, 0)
	if err != nil {
		t.Fatal(err)
	}
	keep := core.Result{Text: "kept"}
	for _, tc := range []struct {
		name string
		dst  []core.Result
	}{
		{"nil", nil},
		{"prefix", []core.Result{keep}},
		{"used array", used[:0]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := append([]core.Result(nil), tc.dst...)
			got, err := core.AppendEvaluationBlock(ctx, tc.dst, p, texts, 7, 3)
			if err != nil {
				t.Fatal(err)
			}
			if len(prefix) > 0 && !reflect.DeepEqual(got[:len(prefix)], prefix) {
				t.Errorf("dst's elements changed: %+v, want %+v", got[:len(prefix)], prefix)
			}
			if !reflect.DeepEqual(got[len(prefix):], want) {
				t.Errorf("appended %+v, want %+v", got[len(prefix):], want)
			}
		})
	}
	// The product path: the same texts and bills (its draws are not seeded).
	got, err := p.AppendBlock(ctx, used[:0], texts)
	if err != nil || len(got) != len(texts) {
		t.Fatalf("AppendBlock: %d results, %v; want %d", len(got), err, len(texts))
	}
	for i := range got {
		if got[i].Accounting.Words != want[i].Accounting.Words || len(got[i].Accounting.Classes) != len(want[i].Accounting.Classes) {
			t.Errorf("text %d: bill %+v, want %+v", i, got[i].Accounting, want[i].Accounting)
		}
	}
	// An error appends nothing.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	dst := []core.Result{keep}
	for name, call := range map[string]func() ([]core.Result, error){
		"AppendBlock":           func() ([]core.Result, error) { return p.AppendBlock(cancelled, dst, texts) },
		"AppendEvaluationBlock": func() ([]core.Result, error) { return core.AppendEvaluationBlock(cancelled, dst, p, texts, 7, 3) },
	} {
		got, err := call()
		if !errors.Is(err, context.Canceled) || len(got) != 1 || got[0].Text != "kept" {
			t.Errorf("%s cancelled: %d results, %v; want dst back and context.Canceled", name, len(got), err)
		}
	}
}

// AppendBlock on a privatizer that cannot privatize is an error of the
// documented category, never a panic, and gives dst back.
func TestAppendBlockNotOpen(t *testing.T) {
	for _, tc := range notOpen(t) {
		dst := make([]core.Result, 1, 4)
		if got, err := tc.p.AppendBlock(context.Background(), dst, []string{"hello"}); !errors.Is(err, tc.want) || len(got) != 1 {
			t.Errorf("%s: AppendBlock: %d results, %v; want dst back and %v", tc.name, len(got), err, tc.want)
		}
		if got, err := core.AppendEvaluationBlock(context.Background(), dst, tc.p, []string{"hello"}, 7, 0); !errors.Is(err, tc.want) || len(got) != 1 {
			t.Errorf("%s: AppendEvaluationBlock: %d results, %v; want dst back and %v", tc.name, len(got), err, tc.want)
		}
	}
}

// A stream of blocks reuses one array: each block's results are passed
// back as dst[:0] once they are written.
func ExamplePrivatizer_AppendBlock() {
	p, err := core.Open(core.Config{})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	var res []core.Result
	for _, block := range [][]string{{"the doctor in Boston", "says"}, {"the treatment works"}} {
		if res, err = p.AppendBlock(context.Background(), res[:0], block); err != nil {
			log.Fatal(err)
		}
		for _, r := range res {
			fmt.Println(r.Accounting.Words) // write r.Text out here
		}
	}
	// Output:
	// 4
	// 1
	// 3
}
