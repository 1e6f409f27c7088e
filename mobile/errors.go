package mobile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime/debug"
	"syscall"

	"github.com/wordveil/wordveil/core"
)

// Error codes: every error this package returns starts with one of these
// followed by ": ".
const (
	CodeInvalidArgument = "WV_INVALID_ARGUMENT" // a bad parameter (ε, preset, mechanism, policy, size), or an unopened handle
	CodeEmptyText       = "WV_EMPTY_TEXT"       // Privatize("")
	CodeTextTooLarge    = "WV_TEXT_TOO_LARGE"   // over Config.MaxTextBytes
	CodeCorruptAsset    = "WV_CORRUPT_ASSET"    // asset bytes or file failed verification
	CodeBudgetExceeded  = "WV_BUDGET_EXCEEDED"  // the ledger refused the charge; no text was produced
	CodeCorruptState    = "WV_CORRUPT_STATE"    // the ledger or memo file is damaged (fails closed)
	CodeIO              = "WV_IO"               // a file could not be read or written
	CodeClosed          = "WV_CLOSED"           // the privatizer was closed (Privatizer.Close)
	CodeInternal        = "WV_INTERNAL"         // a bug: a recovered panic or an error no layer below documents
)

// codes lists every code, for ErrCode.
var codes = []string{CodeInvalidArgument, CodeEmptyText, CodeTextTooLarge, CodeCorruptAsset,
	CodeBudgetExceeded, CodeCorruptState, CodeIO, CodeClosed, CodeInternal}

// ErrCode returns the code at the start of an error message from this
// package ("" if there is none, and "" should it ever panic).
func ErrCode(message string) (code string) {
	defer guardValue(&code, "")
	for _, c := range codes {
		if len(message) > len(c) && message[:len(c)] == c && message[len(c)] == ':' {
			return c
		}
	}
	return ""
}

// codeTable gives each error category of package core its code; the
// categories themselves are assigned in one place, package core's
// errors.go. codeOf tries the rows in order (errors.Is).
var codeTable = []struct {
	category error
	code     string
}{
	{core.ErrInvalidConfig, CodeInvalidArgument},
	{core.ErrEmptyText, CodeEmptyText},
	{core.ErrTextTooLarge, CodeTextTooLarge},
	{core.ErrCorruptAsset, CodeCorruptAsset},
	{core.ErrBudgetExceeded, CodeBudgetExceeded},
	{core.ErrCorruptState, CodeCorruptState},
	{core.ErrClosed, CodeClosed},
}

// codeOf classifies an error of package core: its category's code, a
// filesystem or system-call error (WV_IO), or else WV_INTERNAL, so that an
// error nobody classified is reported as the bug it is rather than as I/O.
func codeOf(err error) string {
	for _, row := range codeTable {
		if errors.Is(err, row.category) {
			return row.code
		}
	}
	var pathErr *fs.PathError
	var linkErr *os.LinkError
	var sysErr *os.SyscallError
	var errno syscall.Errno
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrExist) ||
		errors.As(err, &pathErr) || errors.As(err, &linkErr) || errors.As(err, &sysErr) || errors.As(err, &errno) {
		return CodeIO
	}
	return CodeInternal
}

// codedError is an error of this package: its message is code + ": " +
// the message of err, and errors.Is/As see err.
type codedError struct {
	code string
	err  error
}

func (e *codedError) Error() string { return e.code + ": " + e.err.Error() }
func (e *codedError) Unwrap() error { return e.err }

// wrap prefixes err with its code, once: an error that already carries a
// code is returned as it is.
func wrap(err error) error {
	if err == nil {
		return nil
	}
	var ce *codedError
	if errors.As(err, &ce) {
		return err
	}
	return &codedError{code: codeOf(err), err: err}
}

// errNotOpened is returned by the methods of a nil or zero-value
// Privatizer (gobind lets Java and Swift make one with a no-argument
// constructor).
var errNotOpened = &codedError{code: CodeInvalidArgument,
	err: errors.New("mobile: privatizer not opened: use OpenPrivatizer, OpenPrivatizerFromAsset or OpenPrivatizerFromFile")}

// The guards below are deferred first thing by every exported function and
// method (TestEveryExportedBodyStartsWithGuard checks it): a Go panic that
// reached gobind's glue would abort the host app. Each calls recover
// itself, as recover only stops a panic when called directly by the
// deferred function.

// guard turns a panic into a WV_INTERNAL error in *err.
func guard(err *error) {
	if r := recover(); r != nil {
		*err = &codedError{code: CodeInternal, err: fmt.Errorf("recovered panic: %v\n%s", r, debug.Stack())}
	}
}

// guardValue sets *v to zero on a panic, for exported functions and
// methods without an error result; their doc comments name the zero value.
func guardValue[T any](v *T, zero T) {
	if r := recover(); r != nil {
		*v = zero
	}
}

// guardNone stops a panic in an exported function without results.
func guardNone() {
	_ = recover()
}

// errClosed is returned by the methods of a Privatizer after Close.
var errClosed = wrap(fmt.Errorf("mobile: %w", core.ErrClosed))
