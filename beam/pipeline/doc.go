// Package pipeline privatizes corpora in bulk on Apache Beam: text records
// keyed by user, read from JSON-lines or tab-separated files, each
// privatized by the SDK's own engine (a core.Privatizer opened from
// the same Config on every worker), with a privacy budget per user.
//
// # What it guarantees
//
//   - Every record is released only as the engine's output: each word a
//     draw of the mechanism with fresh crypto/rand randomness, every token
//     outside the vocabulary (numbers it lacks, e-mail addresses, URLs)
//     replaced by the OOV policy. The input's text is never written.
//   - Each user's released records are charged, in the SDK's unit
//     (metric loss, Accounting.UnitFree), against Options.Cap or
//     Options.CapWords: the exact sum of the released records' charges
//     never exceeds the cap. A record that does not fit is withheld: never
//     released, dropped or replaced by a placeholder (Options.OverCap),
//     and counted in the user's summary.
//   - Which records are released is decided from the input alone: a
//     user's records are taken in (source path, line) order, each granted
//     if it still fits. It does not depend on how a runner schedules,
//     splits or retries the work.
//   - With Options.Seed (evaluation only) the output files are identical
//     byte for byte on every run, and each record's text equals what
//     `wordveil privatize -seed RecordSeed(...)` prints for it.
//
// # What it does not guarantee
//
//   - Without Options.State the cap holds within one run. With it, a
//     user's spending carries across every committed run sharing the
//     state, which is sealed with the operator's key and anchored (see
//     state.go for what that does and does not defend).
//   - A run commits by writing MANIFEST.json last; a consumer must read
//     only the files it names. A crashed run leaves files no manifest
//     names until the next run removes them.
//   - The user key is copied to the output as it is (it is how the
//     records and the summary name a user): use a pseudonym.
//   - The output discloses what the SDK's output discloses: each
//     record's layout, its number of words, which records were withheld.
//   - Memory: no text crosses a shuffle. Each record is read and charged
//     in one pass; what is grouped is refs (file, line, byte offset, a
//     checksum of the line, the charge: about 80 bytes each), combined per
//     user into at most what the cap can grant; the granted records are
//     read again from their files, in offset order, and privatized there.
//     A file that cannot seek (compressed, or on GCS/S3) is read again
//     once, from its start, by one worker holding one bit per record of
//     it: time linear in the file's size. So the input files must not
//     change during a run (a changed line fails it). Each output file is sorted in memory by its writer
//     (Options.Shards sets its size).
package pipeline
