// Package anchor is the host's rollback-anchor store for the memo and the
// ledger: the one interface through which they keep their anchors (a small
// durable key-value store kept apart from their directories), the one
// implementation over files (Dir: package core's default and the CLI's),
// and what is kept in it beside the memos' and ledgers' own states: a pin
// per data directory (which ledger, which memo secret it held: Pin) and
// the mark of a deliberate reset (Retired, PinReset).
//
// Guarantees: Dir stores each value atomically and durably before Store
// returns; a pin refuses (ErrMismatch) a directory that now holds another
// ledger or another secret's memos than the one it held, so a directory
// deleted whole and started afresh, or replaced, fails closed instead of
// handing out a fresh budget or fresh responses. It does not guarantee
// anything about a store that is itself lost, restored or rolled back:
// that is the host's to prevent (keep it where backups do not reach).
//
// What each state file stores under which name, and what a rollback then
// makes fail, is said by memo.Options.Anchor and ledger.Options.Anchor.
// Package core re-exports the interface as core.Anchor; the gomobile
// binding declares the same method set as mobile.StateAnchor (gomobile
// binds only the interfaces of the bound package) and passes a host's
// value straight through.
package anchor

// Anchor is a small durable key-value store, kept apart from the memo and
// ledger directories (not backed up or restored with them: on Android
// Keystore-protected or no-backup storage, on iOS the Keychain
// …ThisDeviceOnly; Dir keeps one small file per name outside the state
// directories).
//
// Names are short ASCII: "memo-", "ledger-" or "path-" followed by 32
// hex digits, keyed, random or hashed, so a name says nothing about the
// mechanism, ε or asset. Values are under 64 bytes (a count and a MAC or
// hash value, a pin, a reset mark) and reveal nothing about the text. One
// store may serve any number of memos and ledgers. An error from either
// method fails the call that made it closed.
type Anchor interface {
	// Load returns the bytes last stored under name, or nil or empty (and
	// no error) if none were.
	Load(name string) ([]byte, error)
	// Store keeps state under name, durably before it returns.
	Store(name string, state []byte) error
}
