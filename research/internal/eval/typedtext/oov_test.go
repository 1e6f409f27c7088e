package typedtext

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// docsOf adapts a slice to OOVShare's document stream.
func docsOf(docs ...string) func(fn func(string) error) error {
	return func(fn func(string) error) error {
		for _, d := range docs {
			if err := fn(d); err != nil {
				return err
			}
		}
		return nil
	}
}

func vocab(words ...string) func(string) bool {
	m := make(map[string]bool)
	for _, w := range words {
		m[w] = true
	}
	return func(w string) bool { return m[w] }
}

func TestOOVShare(t *testing.T) {
	tests := []struct {
		name      string
		docs      []string
		vocab     []string
		tokens    int64
		oov       int64
		types     int64
		top       []TypeCount
		wantShare float64
	}{
		{"empty", nil, nil, 0, 0, 0, []TypeCount{}, 0},
		{"all in vocabulary", []string{"the cat", "the dog"}, []string{"the", "cat", "dog"}, 4, 0, 0, []TypeCount{}, 0},
		{"counts and ties by word", []string{"lol the thx", "lol, lol thx zz"}, []string{"the"},
			7, 6, 3, []TypeCount{{"lol", 3, 0}, {"thx", 2, 0}, {"zz", 1, 0}}, 6.0 / 7},
		{"nothing in vocabulary", []string{"a b a"}, nil, 3, 3, 2, []TypeCount{{"a", 2, 0}, {"b", 1, 0}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := OOVShare(docsOf(tc.docs...), simpleWords, vocab(tc.vocab...))
			if err != nil {
				t.Fatal(err)
			}
			if s.Docs != int64(len(tc.docs)) || s.Tokens != tc.tokens || s.OOV != tc.oov || s.Types != tc.types {
				t.Fatalf("got docs %d tokens %d oov %d types %d, want %d %d %d %d",
					s.Docs, s.Tokens, s.OOV, s.Types, len(tc.docs), tc.tokens, tc.oov, tc.types)
			}
			if !slices.Equal(s.Top, tc.top) {
				t.Fatalf("top = %v, want %v", s.Top, tc.top)
			}
			if s.Fraction() != tc.wantShare {
				t.Fatalf("fraction = %v, want %v", s.Fraction(), tc.wantShare)
			}
		})
	}
}

func TestOOVShareTopIsCapped(t *testing.T) {
	var b strings.Builder
	for i := range 2 * TopOOV {
		for range i + 1 {
			fmt.Fprintf(&b, "w%d ", i)
		}
	}
	s, err := OOVShare(docsOf(b.String()), simpleWords, vocab())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Top) != TopOOV || s.Types != 2*TopOOV {
		t.Fatalf("len(Top) = %d, Types = %d", len(s.Top), s.Types)
	}
	if s.Top[0] != (TypeCount{fmt.Sprintf("w%d", 2*TopOOV-1), 2 * TopOOV, 0}) {
		t.Fatalf("Top[0] = %v", s.Top[0])
	}
}

func TestOOVShareErrors(t *testing.T) {
	if _, err := OOVShare(nil, simpleWords, vocab()); !errors.Is(err, ErrArgument) {
		t.Errorf("nil docs: err = %v", err)
	}
	if _, err := OOVShare(docsOf("a"), nil, vocab()); !errors.Is(err, ErrArgument) {
		t.Errorf("nil words: err = %v", err)
	}
	if _, err := OOVShare(docsOf("a"), simpleWords, nil); !errors.Is(err, ErrArgument) {
		t.Errorf("nil inVocab: err = %v", err)
	}
	stop := errors.New("stop")
	s, err := OOVShare(func(fn func(string) error) error {
		if err := fn("a b"); err != nil {
			return err
		}
		return stop
	}, simpleWords, vocab())
	if !errors.Is(err, stop) || s.Tokens != 2 {
		t.Errorf("stream error: err = %v, tokens %d; want stop and the 2 tokens so far", err, s.Tokens)
	}
}

// TestOOVShareWorkIsLinear counts calls instead of timing: each token is
// looked up exactly once, whatever the shape of the input.
func TestOOVShareWorkIsLinear(t *testing.T) {
	for _, n := range []int{1, 1000, 100000} {
		doc := strings.Repeat("x ", n)
		lookups := 0
		s, err := OOVShare(docsOf(doc), simpleWords, func(string) bool { lookups++; return false })
		if err != nil {
			t.Fatal(err)
		}
		if lookups != n || s.Tokens != int64(n) {
			t.Fatalf("n=%d: %d look-ups, %d tokens", n, lookups, s.Tokens)
		}
	}
}

func TestClipKey(t *testing.T) {
	long := strings.Repeat("é", 40) // 80 bytes
	got := clipKey(long)
	if len(got) > maxKeyBytes+len("…") || !strings.HasSuffix(got, "…") {
		t.Fatalf("clipKey = %q", got)
	}
	if clipKey("short") != "short" {
		t.Fatal("short key changed")
	}
}

// TestCounterSpaceSaving checks the over-capacity summary against exact
// counts: every reported count bounds the true one from above, within Err,
// and a word more frequent than total/capacity is never lost.
func TestCounterSpaceSaving(t *testing.T) {
	stream := strings.Fields("a b a c d a e f a g h a b i j a k b l a")
	exact := map[string]int64{}
	c := newCounter(4)
	for _, w := range stream {
		exact[w]++
		c.add(w)
	}
	if c.types != 4 {
		t.Fatalf("types = %d, want the capacity 4", c.types)
	}
	top := c.top(10)
	if len(top) != 4 {
		t.Fatalf("kept %d words, want 4", len(top))
	}
	for _, tc := range top {
		if tc.Count-tc.Err > exact[tc.Word] || exact[tc.Word] > tc.Count {
			t.Errorf("%q: true count %d outside [%d, %d]", tc.Word, exact[tc.Word], tc.Count-tc.Err, tc.Count)
		}
	}
	if top[0].Word != "a" || top[0].Err != 0 || top[0].Count != 7 {
		t.Errorf("top = %v, want a with count 7 exactly first", top[0])
	}
	// Negative control: with room for every word, counts are exact.
	c = newCounter(100)
	for _, w := range stream {
		c.add(w)
	}
	for _, tc := range c.top(100) {
		if tc.Err != 0 || tc.Count != exact[tc.Word] {
			t.Errorf("exact mode: %v, want count %d", tc, exact[tc.Word])
		}
	}
}

func BenchmarkOOVShare(b *testing.B) {
	doc := strings.Repeat("lol the thx cat u r gr8 ", 1000)
	in := vocab("the", "cat")
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := OOVShare(docsOf(doc), simpleWords, in); err != nil {
			b.Fatal(err)
		}
	}
}
