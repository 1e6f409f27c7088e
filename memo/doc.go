// Package memo keeps one permanent response per word, as RAPPOR's
// permanent randomized response does: the first time a word is privatized
// its response is recorded, and every later occurrence releases that same
// response, so the privacy loss for that word is paid once.
//
// Guarantees:
//
//   - One response per word, ever, for a given directory, Identity and
//     secret: Resolve looks words up, draws, charges (its commit callback)
//     and records under an in-process mutex and, on Unix, an exclusive
//     flock(2) shared by every process using the directory (an app and its
//     keyboard extension). Records appended by others are re-read first.
//   - Durable before release: Resolve appends and fsyncs the fresh records
//     before it returns, and the caller releases responses only after it
//     returns, so a crash can never release a response that was not
//     recorded. If commit fails, nothing is recorded.
//   - Fails closed: a damaged file (a record that fails authentication, two
//     records for one word, a short header, a file that shrank, was deleted
//     or replaced under an open Memo) is ErrCorrupt, never a fresh start,
//     which would draw and release new responses for words already
//     answered. A file that does not verify under the secret is
//     ErrWrongSecret.
//   - At rest, the file reveals only its number of entries to someone
//     without the secret: records have a fixed size, words are looked up by
//     a keyed hash (HMAC-SHA256, truncated to 16 bytes), responses are
//     sealed with XChaCha20-Poly1305 under keys derived (HKDF-SHA256) from
//     the secret and a random per-file salt, and the file name is random
//     (it does not say which mechanism, ε or asset the memo is for).
//   - Bounded: a file is refused before reading if it holds more than
//     MaxEntries records; memory is proportional to the number of entries.
//
// It does not:
//
//   - hide the number of entries, or how it grows over time (file size and
//     modification time), nor that the app keeps a memo at all;
//   - protect against anyone holding both the secret and the file, who
//     learns every word the memo answered and its response. The secret must
//     come from the platform keystore (Android Keystore, iOS Keychain) and
//     never be stored next to the file;
//   - survive deletion: deleting the file resets every permanent response
//     (the next Open starts a new file, with a new FileID). That is why the
//     caller records FileID in its privacy ledger, so that a memo deleted
//     or replaced under a live ledger fails closed;
//   - detect a rollback to an older copy of the same file across Opens
//     (an open Memo does detect it);
//   - lock between processes where flock(2) is missing (Windows): there it
//     is safe between goroutines of one process only.
//
// All memo files in one directory must be made with the same secret: a
// file that does not verify under the secret makes Open fail with
// ErrWrongSecret rather than silently start a second memo.
package memo
