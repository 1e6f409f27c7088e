package study

import (
	"fmt"

	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
	"github.com/wordveil/wordveil/research/internal/eval/imdb"
)

// Corpus is a set of reviews encoded as vocabulary ids, flat: review i is
// Tokens[Offsets[i]:Offsets[i+1]], −1 for a token outside the vocabulary.
type Corpus struct {
	Tokens  []int32
	Offsets []int
	Labels  []int
	// Positions[w] lists where word w occurs in Tokens (words that never
	// occur have none); OOV lists the out-of-vocabulary positions.
	Positions [][]int32
	OOV       []int32
	// Types lists the words that occur, ascending.
	Types []int
}

// Encode encodes reviews with lookup over a vocabulary of n words.
func Encode(reviews []imdb.Review, lookup func(string) (int, bool), n int) (*Corpus, error) {
	c := &Corpus{Offsets: []int{0}, Positions: make([][]int32, n)}
	for _, r := range reviews {
		for _, id := range imdb.Encode(r.Text, lookup) {
			p := int32(len(c.Tokens))
			if len(c.Tokens) >= 1<<31-1 {
				return nil, fmt.Errorf("corpus too large")
			}
			c.Tokens = append(c.Tokens, id)
			if id < 0 {
				c.OOV = append(c.OOV, p)
			} else {
				c.Positions[id] = append(c.Positions[id], p)
			}
		}
		c.Offsets = append(c.Offsets, len(c.Tokens))
		c.Labels = append(c.Labels, r.Label)
	}
	for w, ps := range c.Positions {
		if len(ps) > 0 {
			c.Types = append(c.Types, w)
		}
	}
	return c, nil
}

// Docs returns the classifier's documents over tokens (len(tokens) ==
// len(c.Tokens)), sharing its memory.
func (c *Corpus) Docs(tokens []int32) []fasttext.Doc {
	docs := make([]fasttext.Doc, len(c.Labels))
	for i := range docs {
		docs[i] = fasttext.Doc{Tokens: tokens[c.Offsets[i]:c.Offsets[i+1]], Label: c.Labels[i]}
	}
	return docs
}

// InVocab is the number of tokens inside the vocabulary.
func (c *Corpus) InVocab() int { return len(c.Tokens) - len(c.OOV) }

// Draws is the number of mechanism draws privatizing c takes with sample
// pool K (0: every token its own draw).
func (c *Corpus) Draws(k int) int {
	n := 0
	for _, w := range c.Types {
		m := len(c.Positions[w])
		if k > 0 {
			m = min(m, k)
		}
		n += m
	}
	return n
}
