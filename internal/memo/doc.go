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
//     flock(2) on the memo file itself, shared by every process using it
//     (an app and its keyboard extension); there is no lock file a cleaner
//     could delete. Records appended by others are re-read first. The file
//     of an identity has one name, keyed by the secret, and is created by
//     an exclusive link, so two processes never start two memos for one
//     identity.
//   - Durable before release: Resolve appends and fsyncs the fresh records
//     (and then stores the anchor, if any) before it returns, and the
//     caller releases responses only after it returns, so a crash can never
//     release a response that was not recorded. If commit fails, nothing
//     is recorded.
//   - Fails closed: any damage other than a torn final record is
//     ErrCorrupt, never a fresh start, which would draw and release new
//     responses for words already answered: a bit changed in any header
//     field or record (a changed identity MAC included: the file at this
//     identity's name is this identity's), a record removed, moved or
//     duplicated (each record is sealed with its index), a renamed file, a
//     short header, and a file that shrank, was deleted or was replaced by
//     an older copy under an open Memo (it keeps its record count and chain
//     head). A file that does not verify under the secret is
//     ErrWrongSecret.
//   - With an Anchor (Options.Anchor, kept by the host outside the
//     directory), across Opens too: a file cut at a record boundary, an
//     older copy restored (a backup), another copy of the file, or a
//     deleted file is ErrCorrupt. A file ahead of its anchor (a crash
//     between the append and the anchor's store) is accepted.
//   - At rest, the file reveals only its number of entries to someone
//     without the secret: records have a fixed size, words are looked up by
//     a keyed hash (HMAC-SHA256, truncated to 16 bytes), responses are
//     sealed with XChaCha20-Poly1305 under keys derived (HKDF-SHA256) from
//     the secret and a random per-file salt, and the file name, the
//     anchor's name and BindingName are keyed by the secret (they do not
//     say which mechanism, ε or asset the memo is for). The anchor's state
//     is a count and a MAC value.
//   - Bounded: a file is refused before reading if it holds more than
//     MaxEntries records; memory is proportional to the number of entries.
//   - Version 1 files are migrated on Open (same FileID and responses).
//
// It does not:
//
//   - hide the number of entries, or how it grows over time (file size and
//     modification time), nor that the app keeps a memo at all;
//   - protect against anyone holding both the secret and the file, who
//     learns every word the memo answered and its response. The secret must
//     come from the platform keystore (Android Keystore, iOS Keychain) and
//     never be stored next to the file;
//   - without an Anchor, detect across Opens a file cut at a record
//     boundary, an older copy of the same file restored, or the file
//     deleted: the next Open then answers the lost words afresh (a deleted
//     file starts a new one, with a new FileID; that is why the caller
//     records FileID in its privacy ledger, so that a memo deleted or
//     replaced under a live ledger fails closed);
//   - with an Anchor, survive the loss of both the directory and the
//     anchor (an uninstall): that starts afresh, by design;
//   - lock between processes where flock(2) is missing (Windows): there it
//     is safe between goroutines of one process only.
//
// All memo files in one directory must be made with the same secret: a
// file that does not verify under the secret makes Open fail with
// ErrWrongSecret rather than silently start a second memo. The threat
// model, event by event, is in docs/STATE_FILES.md.
package memo
