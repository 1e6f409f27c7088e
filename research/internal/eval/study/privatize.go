package study

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
)

var nan = math.NaN()

// source returns the evaluation source for a labelled purpose: the seed
// and the label, hashed. Evaluation only (never the product's randomness).
func source(seed uint64, label string) rand.Source {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	h.Write([]byte(label))
	var key [32]byte
	copy(key[:], h.Sum(nil))
	return seeded.Key(key)
}

// privatizeCorpus returns c's tokens privatized by s: every in-vocabulary
// token an output of the mechanism, every out-of-vocabulary token a
// uniformly random word (WordVeil's default OOV policy; OOV tokens are
// never kept). poolK > 0 caps the draws per word type (see the package
// doc); 0 draws for every token. It returns the number of draws.
func privatizeCorpus(c *Corpus, s sampler, poolK int, n int, src rand.Source) ([]int32, int, error) {
	out := make([]int32, len(c.Tokens))
	for _, p := range c.OOV {
		out[p] = int32(sample.UniformInt(src, n))
	}
	ws := make([]int, 0, c.Draws(poolK))
	for _, w := range c.Types {
		m := len(c.Positions[w])
		if poolK > 0 {
			m = min(m, poolK)
		}
		for range m {
			ws = append(ws, w)
		}
	}
	ys := make([]int, len(ws))
	if err := s.drawMany(ws, ys, src); err != nil {
		return nil, 0, err
	}
	at := 0
	for _, w := range c.Types {
		at += assign(out, c.Positions[w], ys[at:], poolK, src)
	}
	return out, len(ws), nil
}

// assign writes draws into positions: one draw per position when there
// are enough, otherwise (a pool of K) a uniformly chosen draw each. It
// returns the number of draws consumed.
func assign(out []int32, positions []int32, ys []int, poolK int, src rand.Source) int {
	if poolK <= 0 || len(positions) <= poolK {
		for i, p := range positions {
			out[p] = int32(ys[i])
		}
		return len(positions)
	}
	for _, p := range positions {
		out[p] = int32(ys[sample.UniformInt(src, poolK)])
	}
	return poolK
}

// Privatize returns c's tokens privatized by m over a vocabulary of n
// words with fresh noise for every token, as the study privatizes TR1
// (every out-of-vocabulary token a uniformly random word): the one
// privatization other evaluations (the membership-inference attack)
// share with the study.
func Privatize(c *Corpus, m mechanism.Mechanism, n int, src rand.Source) ([]int32, error) {
	out, _, err := privatizeCorpus(c, singleSampler{m}, 0, n, src)
	return out, err
}

// Source is the study's evaluation source for a labelled purpose (the
// seed and the label, hashed; evaluation only).
func Source(seed uint64, label string) rand.Source { return source(seed, label) }
