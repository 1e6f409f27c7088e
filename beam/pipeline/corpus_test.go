package pipeline

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/binaryembed"
)

// corpus is a generated input: files of JSON lines, user keys with
// Zipf-skewed record counts, texts of typed-text shapes.
type corpus struct {
	dir     string
	files   []string
	records []record // in file and line order
	words   int      // word-like tokens generated
	users   int
}

// oovTokens are tokens no vocabulary has: none may reach the output.
var oovTokens = []string{"xqzvbnw", "zzkqpt", "jane.doe@example.com", "https://ex.am/ple?q=1", "A1B2C3", "qwrtplk's", "vvvvxz-qq", "9f8e7d6c"}

// shapes are typed-text fragments put between vocabulary words.
var shapes = []string{"I'm", "don't", "y'all", "lol", "5", "1990", "3.5", "🙂", "!!", "...", "it's", "well-known", "U.S.", "Dr.", "OK", "gonna"}

// genCorpus writes about words word tokens for at least users users over
// nFiles files (the last gzip-compressed), deterministically from seed.
// record counts per user follow a Zipf law (exponent 1.2): a few users
// have thousands of records, most have a handful.
func genCorpus(t testing.TB, dir string, words, users, nFiles int, seed uint64) *corpus {
	t.Helper()
	e, err := binaryembed.Default()
	if err != nil {
		t.Fatal(err)
	}
	vocab := e.Words()
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	wordZipf := rand.NewZipf(rng, 1.1, 2, uint64(len(vocab)-1))
	userZipf := rand.NewZipf(rng, 1.2, 1, uint64(users-1))
	c := &corpus{dir: dir, users: users}
	ws := make([]*bufio.Writer, nFiles)
	closers := make([]func() error, 0, 2*nFiles)
	lines := make([]int64, nFiles)
	for i := range ws {
		name := filepath.Join(dir, fmt.Sprintf("part-%02d.jsonl", i))
		if i == nFiles-1 && nFiles > 1 {
			name += ".gz"
		}
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		c.files = append(c.files, name)
		if strings.HasSuffix(name, ".gz") {
			z := gzip.NewWriter(f)
			ws[i] = bufio.NewWriter(z)
			closers = append(closers, z.Close, f.Close)
		} else {
			ws[i] = bufio.NewWriter(f)
			closers = append(closers, f.Close)
		}
	}
	// Every user has at least one record; the rest are drawn Zipf.
	next := 0
	for c.words < words || next < users {
		u := next
		if next < users {
			next++
		} else {
			u = int(userZipf.Uint64())
		}
		n := 3 + rng.IntN(30)
		var b strings.Builder
		for k := 0; k < n; k++ {
			if k > 0 {
				b.WriteByte(' ')
			}
			switch r := rng.IntN(100); {
			case r < 80:
				w := vocab[wordZipf.Uint64()]
				if rng.IntN(10) == 0 {
					w = strings.ToUpper(w[:1]) + w[1:]
				}
				b.WriteString(w)
			case r < 95:
				b.WriteString(shapes[rng.IntN(len(shapes))])
			default:
				b.WriteString(oovTokens[rng.IntN(len(oovTokens))])
			}
		}
		c.words += n
		text := b.String()
		f := rng.IntN(nFiles)
		lines[f]++
		user := fmt.Sprintf("user-%04d", u)
		line, _ := json.Marshal(map[string]string{"user": user, "text": text})
		ws[f].Write(line)
		ws[f].WriteByte('\n')
		c.records = append(c.records, record{User: user, Source: c.files[f], Line: lines[f], Text: text})
	}
	for _, w := range ws {
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	for _, cl := range closers {
		if err := cl(); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// assetsDefault returns the embedded asset's word list.
func assetsDefault() ([]string, error) {
	e, err := binaryembed.Default()
	if err != nil {
		return nil, err
	}
	return e.Words(), nil
}
