package wva

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
)

func TestNewPermutation(t *testing.T) {
	for _, tc := range []struct {
		order []uint32
		ok    bool
	}{
		{nil, true}, {[]uint32{0}, true}, {[]uint32{2, 0, 1}, true},
		{[]uint32{1}, false}, {[]uint32{0, 0}, false}, {[]uint32{0, 2}, false}, {[]uint32{1, 2, 2}, false},
	} {
		p, err := NewPermutation(tc.order)
		if (err == nil) != tc.ok {
			t.Errorf("NewPermutation(%v) = %v, want ok=%v", tc.order, err, tc.ok)
			continue
		}
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			continue
		}
		for pos, id := range p.Order {
			if p.Pos[id] != uint32(pos) {
				t.Errorf("Pos[%d] = %d, want %d", id, p.Pos[id], pos)
			}
		}
		if p.Len() != len(tc.order) {
			t.Errorf("Len = %d", p.Len())
		}
	}
}

// TestValidate checks that Marshal refuses every asset Decode would refuse.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(a *Asset)
	}{
		{"duplicate word", func(a *Asset) { setWord(a, 2, "the") }},
		{"empty word", func(a *Asset) { setWord(a, 1, "") }},
		{"long word", func(a *Asset) { setWord(a, 1, strings.Repeat("x", maxWordLen+1)) }},
		{"invalid UTF-8", func(a *Asset) { setWord(a, 1, "\xff") }},
		{"word starts with a UTF-8 continuation byte", func(a *Asset) { setWord(a, 1, "\xa9t") }},
		{"vocabulary text above 1 GiB", func(a *Asset) {
			// 1,025 words of 1 MiB sharing one string: over maxVocabText
			// without allocating it. SetWords must refuse before building.
			w := strings.Repeat("x", 1<<20)
			words := make([]string, maxVocabText>>20+1)
			for i := range words {
				words[i] = w
			}
			a.SetWords(words)
			a.Codes = make([]hamming.Code, len(words))
		}},
		{"codes count", func(a *Asset) { a.Codes = a.Codes[:3] }},
		{"header words", func(a *Asset) { a.Header.Words = 3 }},
		{"header codeBits", func(a *Asset) { a.Header.CodeBits = 64 }},
		{"header dim", func(a *Asset) { a.Header.Dim = -1 }},
		{"list length", func(a *Asset) { a.Lists[0].Order = a.Lists[0].Order[:3] }},
		{"list not permutation", func(a *Asset) { a.Lists[0] = Permutation{Order: []uint32{0, 0, 1, 2}} }},
		{"list Pos wrong", func(a *Asset) { a.Lists[0].Pos = []uint32{0, 1, 2, 3} }},
		{"lists count", func(a *Asset) { a.Header.Lists.Count = 2 }},
		{"lists start words", func(a *Asset) { a.Header.Lists.StartWords = []uint32{0} }},
		{"lists described, absent", func(a *Asset) { a.Lists = nil; a.Header.Lists = &ListsInfo{Count: 1} }},
		{"too many lists", func(a *Asset) {
			for len(a.Lists) <= maxLists {
				a.Lists = append(a.Lists, a.Lists[0])
			}
		}},
		{"tem size", func(a *Asset) {
			a.TEM, _ = NewTEMLists(3, 1, 1, make([][]Neighbor, 3))
		}},
		{"tem header", func(a *Asset) { a.Header.TEM.Pairs = 7 }},
		{"tem described, absent", func(a *Asset) { a.TEM = nil; a.Header.TEM = &TEMInfo{MaxSteps: 3} }},
		{"floats without dim", func(a *Asset) { a.Header.Dim = 0 }},
		{"floats length", func(a *Asset) { a.Floats = a.Floats[:7] }},
		{"floats NaN", func(a *Asset) { a.Floats[3] = float32(math.NaN()) }},
		{"floats Inf", func(a *Asset) { a.Floats[3] = float32(math.Inf(1)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tinyAsset(t)
			tc.mutate(a)
			if err := a.Validate(); !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate = %v, want ErrInvalid", err)
			}
			if _, err := Marshal(a); err == nil {
				t.Fatal("Marshal accepted an invalid asset")
			}
		})
	}
	if err := tinyAsset(t).Validate(); err != nil {
		t.Fatalf("valid asset: %v", err)
	}
	// SetWords with a valid vocabulary clears an earlier refusal (the
	// control for "vocabulary text above 1 GiB").
	a0 := tinyAsset(t)
	huge := strings.Repeat("x", 1<<20)
	words := make([]string, maxVocabText>>20+1)
	for i := range words {
		words[i] = huge
	}
	a0.SetWords(words)
	if err := a0.Validate(); !errors.Is(err, ErrInvalid) {
		t.Fatalf("vocabulary text above 1 GiB: %v", err)
	}
	a0.SetWords([]string{"the", "cat", "sat", "mat"})
	if err := a0.Validate(); err != nil {
		t.Fatalf("valid words after a refused vocabulary: %v", err)
	}
	// Derived fields may be left zero, or set to the right values.
	a := tinyAsset(t)
	a.Header.Words, a.Header.CodeBits = 4, hamming.Bits
	a.Header.Lists = &ListsInfo{Count: 1, StartWords: []uint32{2}}
	a.Header.TEM = &TEMInfo{Step: 0.5, MaxSteps: 3, GammaMax: 1.5, Pairs: 2}
	if err := a.Validate(); err != nil {
		t.Fatalf("consistent derived fields: %v", err)
	}
}
