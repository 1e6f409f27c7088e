// Package flock takes exclusive advisory file locks shared between
// processes (flock(2) on Unix), for the on-disk state that an app and its
// keyboard extension may open at once: the privacy ledger and the memo.
//
// Guarantees: on Unix, Lock returns only when this process holds the lock,
// and the lock is released by the returned function or when the process
// exits (so a killed process never leaves a stale lock). Where flock(2) is
// not available, Lock only succeeds: callers are then safe between the
// goroutines of one process only, and must say so.
package flock
