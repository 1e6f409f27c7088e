// Package ledger keeps a privacy budget on disk: how much privacy loss has
// been spent, in a rolling period and over the lifetime, with caps on both.
//
// Guarantees:
//
//   - A charge that would exceed a cap fails with ErrBudgetExceeded and
//     records nothing; the caller must then release nothing (WordVeil's
//     text privatizer charges before it returns any text).
//   - Crash-safe: the state file is replaced atomically (write a temporary
//     file, fsync, rename, fsync the directory), so after a crash at any
//     point the ledger holds the last committed state, never a torn one.
//   - Fails closed: a ledger file that is unreadable or fails its checksum
//     is an error (ErrCorrupt), never a silent reset to a fresh budget,
//     which would hand out the budget again.
//   - Safe for concurrent use by goroutines, and on Unix by processes
//     sharing the directory (an app and its keyboard extension): each charge
//     re-reads the file under an exclusive flock(2).
//
// The ledger is unit-agnostic: WordVeil charges the unit-free privacy-loss
// estimate ε·P_avg of each privatized word (papers/brr.txt §5), so that one
// budget covers every mechanism.
package ledger
