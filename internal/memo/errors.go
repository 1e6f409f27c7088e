package memo

import "errors"

// Errors returned by this package; wrapped errors add context once after
// the sentinel's text, so "memo: " appears once in every message.
var (
	// ErrCorrupt is a damaged memo file. A damaged memo is an error, not a
	// fresh start: starting afresh would draw and release new responses
	// for words already answered.
	ErrCorrupt = errors.New("memo: corrupt file")
	// ErrWrongSecret is a memo file whose header does not verify under the
	// secret (or was made by another secret).
	ErrWrongSecret = errors.New("memo: the file does not verify under this secret")
	// ErrSecret is a secret shorter than MinSecretLen bytes.
	ErrSecret = errors.New("memo: secret too short")
	// ErrInvalid is a bad argument: a nil or closed Memo, a negative word
	// id or response, nil callbacks, an incomplete Identity.
	ErrInvalid = errors.New("memo: invalid argument")
	// ErrFull is a memo that already holds MaxEntries words.
	ErrFull = errors.New("memo: full")
)
