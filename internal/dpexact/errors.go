package dpexact

import "errors"

// ErrInvalid is returned, wrapped with the reason, for arguments a
// function cannot use: a non-square or ragged matrix, a negative or NaN
// distance, ε or γ out of range, a position list that is not a
// permutation, or a code wider than its stated length.
var ErrInvalid = errors.New("dpexact: invalid input")

// ErrNotDistribution is returned, wrapped with the reason, by Check when
// P is not a conditional distribution: a negative, NaN or infinite entry,
// or a row not summing to 1 within RowSumSlack.
var ErrNotDistribution = errors.New("dpexact: not a conditional distribution")
