package assetbuild

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/binarize"
	"github.com/wordveil/wordveil/research/internal/euclid"
)

// fakeWink returns a wink-format package (.tgz) of n words: clustered
// Gaussian vectors, with some words the default filter must drop.
func fakeWink(t testing.TB, n, dim int, seed uint64) ([]byte, []string, [][]float32) {
	r := rand.New(rand.NewPCG(seed, 1))
	centres := make([][]float64, 8)
	for i := range centres {
		centres[i] = make([]float64, dim)
		for j := range centres[i] {
			centres[i][j] = r.NormFloat64() * 2
		}
	}
	var words []string
	var vecs [][]float32
	for i := 0; len(words) < n; i++ {
		w := "w"
		for v := i; ; v /= 26 {
			w += string(rune('a' + v%26))
			if v < 26 {
				break
			}
		}
		if i%7 == 3 {
			w = "Dropped" + strconv.Itoa(i) // capitals: filtered out
		}
		c := centres[r.IntN(len(centres))]
		v := make([]float32, dim)
		for j := range v {
			v[j] = float32(c[j] + r.NormFloat64()*0.8)
		}
		words = append(words, w)
		vecs = append(vecs, v)
	}
	var doc strings.Builder
	fmt.Fprintf(&doc, `{"precision":8,"l2NormIndex":%d,"wordIndex":%d,"size":%d,"dimensions":%d,"words":[`, dim, dim+1, len(words), dim)
	for i, w := range words {
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.WriteString(strconv.Quote(w))
	}
	doc.WriteString(`],"vectors":{`)
	for i, w := range words {
		if i > 0 {
			doc.WriteByte(',')
		}
		fmt.Fprintf(&doc, "%s:[", strconv.Quote(w))
		var s float64
		for _, x := range vecs[i] {
			fmt.Fprintf(&doc, "%s,", strconv.FormatFloat(float64(x), 'g', -1, 32))
			s += float64(x) * float64(x)
		}
		fmt.Fprintf(&doc, "%.8f,%d]", math.Sqrt(s), i)
	}
	doc.WriteString(`}}`)
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	body := []byte(doc.String())
	if err := tw.WriteHeader(&tar.Header{Name: "package/" + WinkPackage + ".json", Mode: 0o644, Size: int64(len(body))}); err != nil {
		t.Fatal(err)
	}
	tw.Write(body)
	tw.Close()
	gz.Close()
	return buf.Bytes(), words, vecs
}

func testConfig() Config {
	c := DefaultEnglish()
	c.Integrity = ""
	c.Words = 400
	c.Binarizer = SRP
	c.GammaMax = 9
	c.TEMStep = 0.05
	c.Lists = 3
	c.Workers = 2
	return c
}

// TestBuildDeterministicAndValid builds a 400-word asset twice (2 workers,
// then 1) and checks the two are byte for byte equal and valid. -short
// builds 100 words once: the presets' calibration dominates a build and
// the race detector makes one at 400 words take minutes; the comparison
// across worker counts runs at full size in test-full.
func TestBuildDeterministicAndValid(t *testing.T) {
	nWords, nSource := 400, 520
	if testing.Short() {
		nWords, nSource = 100, 140
	}
	src, words, vecs := fakeWink(t, nSource, 16, 7)
	cfg := testConfig()
	cfg.Words = nWords
	a, err := Build(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b1, err := wva.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	if !testing.Short() {
		cfg.Workers = 1 // the worker count must not show in the output
		a2, err := Build(src, cfg)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := wva.Marshal(a2)
		if !bytes.Equal(b1, b2) {
			t.Fatal("two builds of the same source and config differ")
		}
	}
	got, err := wva.Decode(b1)
	if err != nil {
		t.Fatal(err)
	}
	// Presets: calibrated for every level of the Hamming mechanisms (the
	// worker count above showed in none of them), and what Preset serves.
	p := got.Header.Presets
	if p == nil || p.Method != CalibrationMethod || len(p.Targets) != len(Levels) {
		t.Fatalf("presets: %+v", p)
	}
	for _, name := range []string{mechanism.NameBRR, mechanism.NameTEMHamming, mechanism.Name1DG, mechanism.Name1DT} {
		prev := 0.0
		for _, l := range Levels {
			eps, err := mechanism.Preset(got, name, l.Name)
			if err != nil || !(eps > prev) {
				t.Errorf("%s %s: ε %v (previous level %v), %v", name, l.Name, eps, prev, err)
			}
			prev = eps
		}
	}
	// Vocabulary: the first nWords words the filter keeps, in source order.
	var want []string
	var wantVecs []float32
	for i, w := range words {
		if binarize.PlainWord(w) && len(want) < nWords {
			want = append(want, w)
			wantVecs = append(wantVecs, vecs[i]...)
		}
	}
	if strings.Join(got.WordList(), " ") != strings.Join(want, " ") {
		t.Fatalf("vocabulary differs from the filtered source")
	}
	if len(got.Lists) != 3 || got.Header.Seeds["master"] != cfg.Seed {
		t.Fatalf("%d lists, seeds %v", len(got.Lists), got.Header.Seeds)
	}
	// TEM balls: exactly {i : ceil(d/step) ≤ G}, with those distances.
	x, _ := euclid.New(wantVecs, 16)
	g, _ := got.TEM.StepsFor(cfg.GammaMax)
	for w := 0; w < got.Len(); w++ {
		ball := got.TEM.Ball(w, nil)
		m := map[uint32]uint32{}
		for _, n := range ball {
			m[n.ID] = n.Dist
		}
		count := 0
		for i := 0; i < got.Len(); i++ {
			q, err := wva.Quantize(euclid.Dist(x.Row(w), x.Row(i)), cfg.TEMStep)
			if err != nil {
				t.Fatal(err)
			}
			if q > g {
				continue
			}
			count++
			if d, ok := m[uint32(i)]; !ok || d != q {
				t.Fatalf("word %d: neighbour %d at %d steps missing or wrong (%d, %v)", w, i, q, d, ok)
			}
		}
		if count != len(ball) {
			t.Fatalf("word %d: ball has %d entries, brute force %d", w, len(ball), count)
		}
	}
	if got.TEM.Pairs() == 0 {
		t.Fatal("test data too sparse: no TEM pairs")
	}
}

func TestBuildErrors(t *testing.T) {
	src, _, _ := fakeWink(t, 60, 8, 3)
	cfg := testConfig()
	cfg.Words = 40
	cfg.Presets = false // errors of the source and the config: no calibration needed
	cfg.Integrity = "sha512-" + base64.StdEncoding.EncodeToString(make([]byte, sha512.Size))
	if _, err := Build(src, cfg); !errors.Is(err, ErrIntegrity) {
		t.Fatalf("wrong integrity: %v", err)
	}
	sum := sha512.Sum512(src)
	cfg.Integrity = "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	if _, err := Build(src, cfg); err != nil {
		t.Fatalf("right integrity: %v", err)
	}
	for name, mutate := range map[string]func(*Config){
		"too many words": func(c *Config) { c.Words = 1000 },
		"bad binarizer":  func(c *Config) { c.Binarizer = "pca" },
		"bad step":       func(c *Config) { c.TEMStep = 0 },
		"step > gamma":   func(c *Config) { c.GammaMax, c.TEMStep = 1, 2 },
		"NaN gamma":      func(c *Config) { c.GammaMax = math.NaN() },
		"lists":          func(c *Config) { c.Lists = 300 },
	} {
		c := testConfig()
		c.Words = 40
		c.Presets = false
		mutate(&c)
		if _, err := Build(src, c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Build([]byte("not a tarball"), testConfig()); err == nil {
		t.Error("garbage source: no error")
	}
}
