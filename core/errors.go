package core

import (
	"errors"
	"fmt"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/wva"
)

// The error categories. Every error of this package matches exactly one of
// them with errors.Is, or none when it is a file-system error (matched by
// fs.ErrNotExist, *fs.PathError and the like) or a bug. Messages start with
// "wordveil: " once; the categories' own text is not repeated in them.
var (
	// ErrInvalidConfig: a Config field, or an argument, is out of range or
	// does not fit the asset (an unknown mechanism or level, ε outside the
	// mechanism's accepted range, a memo opened with another mechanism).
	ErrInvalidConfig = errors.New("invalid configuration")
	// ErrEmptyText: Privatize was given an empty text.
	ErrEmptyText = errors.New("empty text")
	// ErrTextTooLarge: the text is longer than Config.MaxTextBytes.
	ErrTextTooLarge = errors.New("text too large")
	// ErrBudgetExceeded: the ledger refused the charge; no text was
	// produced and nothing was charged.
	ErrBudgetExceeded = errors.New("privacy budget exceeded")
	// ErrCorruptAsset: the asset failed verification (checksums, format,
	// bounds).
	ErrCorruptAsset = errors.New("corrupt asset")
	// ErrCorruptState: the memo or ledger files are damaged, rolled back,
	// replaced or sealed with another secret; they fail closed.
	ErrCorruptState = errors.New("corrupt state")
	// ErrClosed: the Privatizer was closed.
	ErrClosed = errors.New("privatizer closed")
)

// categories is the one place where the errors of the packages below get
// their category. classify tries the rows in order (errors.Is), so an
// error that wraps two sentinels gets the first row's. Every exported Err*
// variable of internal/mechanism, privatize, memo, ledger and wva has a row
// (TestCategoriesCoverSentinels parses their sources to check).
var categories = []struct {
	sentinel, category error
}{
	{ledger.ErrBudgetExceeded, ErrBudgetExceeded},
	{ledger.ErrCorrupt, ErrCorruptState},
	{ledger.ErrBindingMismatch, ErrCorruptState}, // the memo was deleted or replaced under its ledger
	{anchor.ErrMismatch, ErrCorruptState},        // a directory deleted whole and started afresh, or replaced
	{memo.ErrCorrupt, ErrCorruptState},
	{memo.ErrWrongSecret, ErrCorruptState},
	{memo.ErrFull, ErrCorruptState},
	{privatize.ErrMemoMismatch, ErrInvalidConfig},
	{memo.ErrSecret, ErrInvalidConfig},
	{memo.ErrInvalid, ErrInvalidConfig},
	{mechanism.ErrEpsilonSaturated, ErrInvalidConfig},
	{privatize.ErrInvalid, ErrInvalidConfig},
	{wva.ErrNotRegular, ErrInvalidConfig},
	{wva.ErrFileTooLarge, ErrInvalidConfig},
	{privatize.ErrClosed, ErrClosed},
	{privatize.ErrEmptyText, ErrEmptyText},
	{privatize.ErrTextTooLarge, ErrTextTooLarge},

	{mechanism.ErrInvalidEpsilon, ErrInvalidConfig},
	{mechanism.ErrInvalidTEMOptions, ErrInvalidConfig},
	{mechanism.ErrUnknownMechanism, ErrInvalidConfig},
	{mechanism.ErrUnknownLevel, ErrInvalidConfig},
	{mechanism.ErrNotOffered, ErrInvalidConfig}, // tem: TEM over the asset's Euclidean lists
	{mechanism.ErrNoPreset, ErrInvalidConfig},
	{privatize.ErrOOVPolicy, ErrInvalidConfig},
	{privatize.ErrNoUnitLoss, ErrInvalidConfig},
	{mechanism.ErrWordOutOfRange, ErrInvalidConfig},
	{mechanism.ErrNoLists, ErrInvalidConfig},   // the mechanism needs lists (or CusText sets) this asset lacks
	{mechanism.ErrNoOutputs, ErrInvalidConfig}, // an exclusion list that leaves no word to output (or empties a CusText set)
	{mechanism.ErrOutputsMismatch, ErrInvalidConfig},
	{privatize.ErrNumbers, ErrInvalidConfig},
	{ledger.ErrInvalid, ErrInvalidConfig},
	{wva.ErrGammaMax, ErrInvalidConfig}, // ε too small for the asset's TEM lists

	{wva.ErrBadMagic, ErrCorruptAsset},
	{wva.ErrVersion, ErrCorruptAsset},
	{wva.ErrChecksum, ErrCorruptAsset},
	{wva.ErrTruncated, ErrCorruptAsset},
	{wva.ErrCorrupt, ErrCorruptAsset},
	{wva.ErrInvalid, ErrCorruptAsset},
	{mechanism.ErrEmptyVocabulary, ErrCorruptAsset},
	{mechanism.ErrListMismatch, ErrCorruptAsset},
}

// categorized is an error of this package: "wordveil: " and the message of
// err; errors.Is sees its category and everything err wraps.
type categorized struct {
	category error // one of the Err* categories, or nil (file system, bug)
	err      error
}

func (e *categorized) Error() string { return "wordveil: " + e.err.Error() }
func (e *categorized) Unwrap() error { return e.err }
func (e *categorized) Is(target error) bool {
	return e.category != nil && target == e.category
}

// classify gives err its category (and the package prefix), once: an error
// already classified is returned as it is.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var c *categorized
	if errors.As(err, &c) {
		return err
	}
	for _, row := range categories {
		if errors.Is(err, row.sentinel) {
			return &categorized{category: row.category, err: err}
		}
	}
	return &categorized{err: err}
}

// invalid returns an ErrInvalidConfig error.
func invalid(format string, a ...any) error {
	return &categorized{category: ErrInvalidConfig, err: fmt.Errorf(format, a...)}
}

// errNotOpened is returned by the methods of a nil or zero-value
// Privatizer.
var errNotOpened = &categorized{category: ErrInvalidConfig, err: errors.New("privatizer not opened: use Open")}
