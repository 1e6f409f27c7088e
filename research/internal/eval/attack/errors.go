package attack

import "errors"

// ErrInvalid wraps every argument error: a bad prior, law, column, k,
// token or sample size. Nothing in this package panics on bad input.
var ErrInvalid = errors.New("attack: invalid argument")
