package alacarte

import "errors"

// Sentinel errors. Each error returned by this package wraps exactly one of
// them, with the details after it ("alacarte: invalid configuration:
// window 0, want 1..64").
var (
	// ErrConfig: a setting, a target list or an argument is out of range.
	ErrConfig = errors.New("alacarte: invalid configuration")
	// ErrSource: the source vectors are missing, empty or invalid.
	ErrSource = errors.New("alacarte: invalid source vectors")
	// ErrDim: a vector, map or code set does not match the source's shape.
	ErrDim = errors.New("alacarte: dimension mismatch")
	// ErrNotFinite: a NaN or infinity appeared in a vector or a result.
	ErrNotFinite = errors.New("alacarte: non-finite value")
	// ErrNoData: the corpus gave too few usable occurrences to fit or to
	// evaluate.
	ErrNoData = errors.New("alacarte: not enough data")
	// ErrSingular: the least-squares system could not be solved.
	ErrSingular = errors.New("alacarte: singular least-squares system")
	// ErrNil: a method was called on a nil or zero-value receiver.
	ErrNil = errors.New("alacarte: nil or uninitialised value")
)
