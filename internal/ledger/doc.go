// Package ledger keeps a privacy budget on disk: how much privacy loss has
// been spent, in a rolling period and over the lifetime, with caps on both.
//
// Guarantees:
//
//   - A charge that would exceed a cap fails with ErrBudgetExceeded and
//     records nothing; the caller must then release nothing (WordVeil's
//     text privatizer charges before it returns any text). Caps are
//     compared with the exact sum of the charges, not a rounded one.
//   - A charge is durable before Charge returns: one fixed-size, checksummed
//     record is appended to the ledger file and fsync'd. Its cost does not
//     grow with the history: totals are kept in memory and only records
//     appended since the last call are read; the log is compacted into a
//     snapshot once it holds more than twice the live state plus 1024
//     records.
//   - Crash-safe: a snapshot replaces the file atomically (temporary file,
//     fsync, rename, fsync the directory), and a crash during an append can
//     only tear the last record. A torn last record is dropped when the
//     ledger is next read: its Charge had not returned (the record was not
//     yet fsync'd), so nothing was released for it. Every acknowledged
//     charge survives a crash.
//   - Fails closed: a damaged record anywhere but a torn end, a bad
//     checksum (every slot's covers its offset, so a removed or moved
//     record fails), an unknown version, a negative or non-finite amount or
//     total, charge times going backwards, or a ledger file deleted from
//     under an open ledger or from beside its marker file is an error
//     (ErrCorrupt), never a silent reset to a fresh budget, which would
//     hand out the budget again.
//   - An open ledger fails closed (ErrCorrupt) on a file that does not
//     continue what it last saw: records cut off, an older copy or another
//     ledger's file put in its place. Records form a hash chain, carried
//     across compactions; the ledger keeps its count and head.
//   - With an Anchor (Options.Anchor, kept by the host outside the
//     directory, named by the ledger's random id), across Opens too, at
//     whatever path the directory is opened: a file with fewer records
//     than the anchor says, or whose records up to that count are not the
//     ones the anchor saw, is ErrCorrupt. A file ahead of its anchor (a
//     crash between the append and the anchor's store) is accepted and the
//     anchor moved forward. The anchor holds a random id, a count and a
//     hash: nothing about the charges. Not detected: the anchor deleted
//     too, or the directory deleted whole (a new ledger, a new id; package
//     core's directory pins, anchor.Pin, detect that).
//   - A clock set backwards hands no budget back: ledger time never runs
//     earlier than the latest recorded charge, so nothing leaves the window
//     until the clock catches up. The per-period cap binds at every clock
//     value, MinInt64 and MaxInt64 included (no time subtraction wraps or
//     saturates).
//   - Bindings: Bind ties a name (e.g. the privatizer's memo) to an id for
//     the life of the ledger; a different id later fails with
//     ErrBindingMismatch. Rebind renames a binding (keeping its id) and
//     removes the old name from the file. Options.Bind does either in the
//     locked pass that opens the ledger.
//   - Safe for concurrent use by goroutines, and on Unix by processes
//     sharing the directory (an app and its keyboard extension): every call
//     holds an exclusive flock(2) on the ledger file itself (not on a lock
//     file a cleaner could delete) and first reads what other processes
//     appended; a compaction renames a new file over the log, and a process
//     that locked the old one notices and locks the new one. A fresh log is
//     created by an exclusive link, so two processes never create two.
//   - A version 1 ledger (wordveil-ledger.json, rewritten whole on every
//     charge) is carried over on Open, or refused if it is corrupt; a
//     version 2 log is rewritten as version 3 (with the chain) on Open.
//
// What it does not guarantee:
//
//   - The file is checksummed, not keyed: someone who can write it can
//     forge any state. A ledger cannot defend against the device's owner;
//     it keeps a privatizing app honest.
//   - Without an Anchor, across Opens: a file cut at a record boundary or
//     an older copy restored (a backup) is not detected, and hands the
//     removed charges back. Deleting the ledger's directory (with its
//     anchor, if any) resets everything: the spent budget, the bindings,
//     and so the memo's tie to the ledger. Deleting only the ledger file
//     is detected (the directory keeps a marker, wordveil-ledger.json) and
//     fails closed.
//   - With an Anchor, a process that appends without it and compacts
//     leaves records the anchor can no longer check (every process using
//     the directory should use the anchor).
//   - An open ledger keeps its checked copy of bytes already read: damage
//     in place (same size) is found by the next Open, and meanwhile the
//     ledger charges against the true totals.
//   - The rolling window trusts the wall clock going forward.
//   - Ledgers opened with different periods on one directory share one
//     history; the file keeps charges for the widest period any of them
//     used (it never narrows). A period wider than any used before counts
//     only the charges still kept.
//   - Without flock(2) (non-Unix systems) only one process may use a
//     directory.
//   - A truncation of the file by something other than a crash, by less
//     than one record, is indistinguishable from a torn append and loses
//     that record (with an Anchor, only if that record had not yet been
//     anchored).
//
// The threat model, event by event, is in docs/STATE_FILES.md.
//
// The ledger is unit-agnostic: WordVeil charges the metric privacy-loss
// estimate of each privatized word, so that one budget covers every
// mechanism. WordCap converts a cap given in words to that unit, so that
// exactly the words asked for are granted.
//
// Tally is a lifetime budget kept in memory, for a caller that holds every
// charge of one account in one place (a batch pipeline's accounting per
// user): it compares its cap with the exact sum of its charges as Ledger
// does, and guarantees nothing else above: nothing is on disk, so it is no
// defence against a restart or a rollback, and it is not safe for
// concurrent use.
package ledger
