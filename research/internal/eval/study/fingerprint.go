package study

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
)

// fingerprintVersion changes when the study's sampling changes in a way
// that changes results for the same configuration, so that old records
// are not reused.
const fingerprintVersion = 2

// commonFingerprint hashes what every record depends on: the asset's
// content (wva.Asset.SHA256(), the hash of the file it was decoded from,
// besides its name and size), the training and test corpora (tokens and
// labels), the seed, the classifier and the deniability protocol. Ratio
// and baseline records carry it as their fingerprint.
func (c *Config) commonFingerprint() string {
	a := c.Env.Asset
	sum := a.SHA256()
	b, _ := json.Marshal(struct {
		Version          int
		Asset            string
		AssetSHA256      string
		N                int
		Train, Test      string
		Seed             uint64
		Classifier       fasttext.Config
		DenWords, DenDrw int
	}{fingerprintVersion, a.Header.Name, hex.EncodeToString(sum[:]), a.Len(), corpusHash(c.Train), corpusHash(c.Test),
		c.Seed, c.Classifier, c.DeniabilityWords, c.DeniabilityDraws})
	return shortHash(b)
}

// specFingerprint is the fingerprint of a mechanism's accuracy and
// deniability records: the common configuration and the spec alone (its
// name, ε per grid index, and the sample pool it runs with), so adding or
// changing one mechanism leaves the others' records valid.
func (c *Config) specFingerprint(common string, s *Spec) string {
	b, _ := json.Marshal(struct {
		Common string
		Name   string
		Eps    []float64
		Pooled bool
		PoolK  int
	}{common, s.Name, s.Eps, s.Pooled, c.poolFor(s)})
	return shortHash(b)
}

func shortHash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// corpusHash hashes a corpus's tokens, review boundaries and labels.
func corpusHash(c *Corpus) string {
	if c == nil {
		return ""
	}
	h := sha256.New()
	var buf [8]byte
	put := func(x int64) {
		binary.LittleEndian.PutUint64(buf[:], uint64(x))
		h.Write(buf[:])
	}
	put(int64(len(c.Tokens)))
	for _, t := range c.Tokens {
		put(int64(t))
	}
	put(int64(len(c.Offsets)))
	for _, o := range c.Offsets {
		put(int64(o))
	}
	put(int64(len(c.Labels)))
	for _, l := range c.Labels {
		put(int64(l))
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// CorpusHash is the short hash of a corpus's tokens, review boundaries
// and labels that the study's fingerprints use, for other evaluations'
// fingerprints.
func CorpusHash(c *Corpus) string { return corpusHash(c) }

// groupKey is the group a record's fingerprint is compared within: its
// kind, mechanism and (for ratios) metric.
func (r Record) groupKey() string {
	return fmt.Sprintf("%s/%s/%s", r.Kind, r.Mechanism, r.Metric)
}

// Current returns the records of a results file (in file order) that
// describe its latest configuration, for the report:
//
//  1. the latest common configuration is the Config of the LAST record
//     (the most recent run's asset content, corpora, seed, classifier and
//     deniability protocol); records of any other Config are dropped.
//     Records written before per-spec fingerprints have no Config; they
//     count as one configuration of their own.
//  2. within it, for each (Kind, Mechanism, Metric), only the records
//     with the Fingerprint of that group's last record are kept: a
//     mechanism rerun with another ε grid or pool replaces its old cells,
//     and the other mechanisms' cells stay.
//
// A mechanism's accuracy and deniability records share its spec's
// fingerprint, so a cell's N_w is always from the same spec as its
// accuracies.
func Current(recs []Record) []Record {
	if len(recs) == 0 {
		return nil
	}
	cfg := recs[len(recs)-1].Config
	last := map[string]string{}
	for _, r := range recs {
		if r.Config == cfg {
			last[r.groupKey()] = r.Fingerprint
		}
	}
	var out []Record
	for _, r := range recs {
		if r.Config == cfg && last[r.groupKey()] == r.Fingerprint {
			out = append(out, r)
		}
	}
	return out
}

// fingerprints are a run's expected fingerprints.
type fingerprints struct {
	common string
	spec   map[string]string // mechanism name → spec fingerprint
}

func (c *Config) fingerprints(specs []Spec) *fingerprints {
	f := &fingerprints{common: c.commonFingerprint(), spec: map[string]string{}}
	for i := range specs {
		f.spec[specs[i].Name] = c.specFingerprint(f.common, &specs[i])
	}
	return f
}

// want is the fingerprint a record of this run would carry, and whether
// this run makes records of its kind and mechanism at all.
func (f *fingerprints) want(r Record) (string, bool) {
	switch r.Kind {
	case "ratio", "baseline":
		return f.common, true
	case "accuracy", "deniability":
		fp, ok := f.spec[r.Mechanism]
		return fp, ok
	}
	return "", false
}
