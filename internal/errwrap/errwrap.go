// Package errwrap builds the engine's errors in one style: a message that
// names where it comes from once and says what is wrong and what to do,
// tagged with a sentinel error that errors.Is finds but whose generic text
// the message does not repeat.
//
// It guarantees only that: Error returns exactly the formatted message, and
// errors.Is and errors.As see the sentinel and every error the format wraps
// with %w. It imports nothing of the module (a leaf).
package errwrap

import "fmt"

// Tag returns an error whose message is fmt.Errorf(format, a...)'s and
// which wraps sentinel (without printing its text) and whatever the format
// wraps with %w. A nil sentinel is ignored.
func Tag(sentinel error, format string, a ...any) error {
	return Also(fmt.Errorf(format, a...), sentinel)
}

// Also returns an error with err's message that wraps err and, without
// printing them, the non-nil sentinels: for an error that belongs to
// more than one sentinel's kind (errors.Is finds each).
func Also(err error, sentinels ...error) error {
	t := &tagged{err: err}
	for _, s := range sentinels {
		if s != nil {
			t.sentinels = append(t.sentinels, s)
		}
	}
	return t
}

type tagged struct {
	sentinels []error
	err       error // the message, and the errors it wraps with %w
}

func (e *tagged) Error() string { return e.err.Error() }

// Unwrap returns the sentinels, then the error that carries the message
// (and wraps what its format wrapped): the sentinels are the error's
// kinds and are matched first.
func (e *tagged) Unwrap() []error {
	return append(append([]error(nil), e.sentinels...), e.err)
}
