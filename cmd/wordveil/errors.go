package main

import (
	"errors"
	"strings"

	"github.com/wordveil/wordveil/core"
)

// rootPrefix begins every message of package core; the CLI prints its
// own "wordveil: " before an error, so fromRoot drops the package's.
const rootPrefix = "wordveil: "

// fromRoot is the one place where an error of package core gets the
// CLI's exit code: ErrInvalidConfig is a usage error (exit 2), because
// every setting the package refuses came from a flag; ErrBudgetExceeded is
// a refused charge (exit 3); every other error, a corrupt asset or state
// file included, is a failure (exit 1). where, if not empty, says which
// input the error concerns ("lines 3–5"). The result still matches, with
// errors.Is, everything err does.
func fromRoot(err error, where string) error {
	if err == nil {
		return nil
	}
	e := &rootError{err: err, msg: strings.TrimPrefix(err.Error(), rootPrefix)}
	if where != "" {
		e.msg = where + ": " + e.msg
	}
	switch {
	case errors.Is(err, core.ErrInvalidConfig):
		e.kind = errUsage
	case errors.Is(err, core.ErrBudgetExceeded):
		e.kind = errBudget
	}
	return e
}

// rootError is an error of package core in the CLI's conventions.
type rootError struct {
	kind error // errUsage, errBudget, or nil (exit 1)
	msg  string
	err  error
}

func (e *rootError) Error() string {
	if e.kind == nil {
		return e.msg
	}
	return e.kind.Error() + ": " + e.msg
}

func (e *rootError) Unwrap() []error {
	if e.kind == nil {
		return []error{e.err}
	}
	return []error{e.kind, e.err}
}
