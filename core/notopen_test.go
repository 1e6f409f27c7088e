package core_test

import (
	"testing"

	"github.com/wordveil/wordveil/core"
)

// notOpenCase is a privatizer that cannot privatize and the error
// category every call on it must return.
type notOpenCase struct {
	name string
	p    *core.Privatizer
	want error
}

// notOpen returns the three privatizers that cannot privatize: nil, the
// zero value and a closed one.
func notOpen(t *testing.T) []notOpenCase {
	t.Helper()
	closed, err := core.Open(core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := closed.Close(); err != nil {
		t.Fatal(err)
	}
	return []notOpenCase{
		{"nil", nil, core.ErrInvalidConfig},
		{"zero value", &core.Privatizer{}, core.ErrInvalidConfig},
		{"closed", closed, core.ErrClosed},
	}
}
