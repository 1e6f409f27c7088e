// Package anchor declares the one interface through which the memo and the
// ledger keep their rollback anchors with the host: a small durable
// key-value store kept apart from their directories.
//
// It guarantees nothing by itself: it is the contract a host implements
// and internal/memo and internal/ledger call (package core re-exports it as
// core.Anchor; the gomobile binding declares the same method set as
// mobile.StateAnchor, because gomobile binds only the interfaces of the
// bound package, and passes a host's value straight through). What each
// state file stores under which name, and what a rollback then makes fail,
// is said by memo.Options.Anchor and ledger.Options.Anchor.
package anchor

// Anchor is a small durable key-value store, kept apart from the memo and
// ledger directories (not backed up or restored with them: on Android
// Keystore-protected or no-backup storage, on iOS the Keychain
// …ThisDeviceOnly; the CLI keeps one small file per name outside the
// state directories).
//
// Names are short ASCII: "memo-" or "ledger-" followed by 32 hex digits,
// keyed or random, so a name says nothing about the mechanism, ε or asset.
// Values are under 64 bytes (a count and a MAC or hash value) and reveal
// nothing about the text. One store may serve any number of memos and
// ledgers. An error from either method fails the call that made it
// closed.
type Anchor interface {
	// Load returns the bytes last stored under name, or nil or empty (and
	// no error) if none were.
	Load(name string) ([]byte, error)
	// Store keeps state under name, durably before it returns.
	Store(name string, state []byte) error
}
