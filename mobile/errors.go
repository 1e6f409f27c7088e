package mobile

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/ledger"
)

// Error codes: every error this package returns starts with one of these
// followed by ": ".
const (
	CodeInvalidArgument = "WV_INVALID_ARGUMENT" // a bad parameter (ε, preset, mechanism, policy, size)
	CodeEmptyText       = "WV_EMPTY_TEXT"       // Privatize("")
	CodeTextTooLarge    = "WV_TEXT_TOO_LARGE"   // over Config.MaxTextBytes
	CodeCorruptAsset    = "WV_CORRUPT_ASSET"    // asset bytes or file failed verification
	CodeBudgetExceeded  = "WV_BUDGET_EXCEEDED"  // the ledger refused the charge; no text was produced
	CodeCorruptState    = "WV_CORRUPT_STATE"    // the ledger or memo file is damaged (fails closed)
	CodeIO              = "WV_IO"               // a file could not be read or written
	CodeInternal        = "WV_INTERNAL"         // a bug: a recovered panic
)

// ErrCode returns the code at the start of an error message from this
// package ("" if there is none).
func ErrCode(message string) string {
	for _, c := range []string{CodeInvalidArgument, CodeEmptyText, CodeTextTooLarge, CodeCorruptAsset,
		CodeBudgetExceeded, CodeCorruptState, CodeIO, CodeInternal} {
		if len(message) > len(c) && message[:len(c)] == c && message[len(c)] == ':' {
			return c
		}
	}
	return ""
}

// codeOf classifies an error from the layers below.
func codeOf(err error) string {
	switch {
	case errors.Is(err, core.ErrInvalidEpsilon), errors.Is(err, core.ErrInvalidGamma), errors.Is(err, core.ErrInvalidBeta),
		errors.Is(err, core.ErrUnknownMechanism), errors.Is(err, core.ErrUnknownLevel), errors.Is(err, core.ErrNoPreset),
		errors.Is(err, core.ErrOOVPolicy), errors.Is(err, core.ErrNoUnitLoss), errors.Is(err, ledger.ErrInvalid),
		errors.Is(err, wva.ErrGammaMax), errors.Is(err, core.ErrWordOutOfRange), errors.Is(err, core.ErrNoLists),
		errors.Is(err, core.ErrNoTEMLists):
		return CodeInvalidArgument
	case errors.Is(err, core.ErrEmptyText):
		return CodeEmptyText
	case errors.Is(err, core.ErrTextTooLarge):
		return CodeTextTooLarge
	case errors.Is(err, wva.ErrBadMagic), errors.Is(err, wva.ErrVersion), errors.Is(err, wva.ErrChecksum),
		errors.Is(err, wva.ErrTruncated), errors.Is(err, wva.ErrCorrupt):
		return CodeCorruptAsset
	case errors.Is(err, ledger.ErrBudgetExceeded):
		return CodeBudgetExceeded
	case errors.Is(err, ledger.ErrCorrupt), errors.Is(err, core.ErrMemoCorrupt):
		return CodeCorruptState
	}
	return CodeIO
}

// wrap prefixes err with its code.
func wrap(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", codeOf(err), err)
}

func invalid(format string, a ...any) error {
	return fmt.Errorf("%s: %s", CodeInvalidArgument, fmt.Sprintf(format, a...))
}

// guard turns a panic into a WV_INTERNAL error in *err. Every exported
// function defers it.
func guard(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: recovered panic: %v\n%s", CodeInternal, r, debug.Stack())
	}
}
