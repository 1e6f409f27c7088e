package privatize

import (
	"errors"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
)

// TestArgumentErrors: a nil mechanism or asset and an out-of-range
// RareRank or MaxTextBytes are invalid arguments (ErrInvalid), never a
// corrupt asset (mechanism.ErrEmptyVocabulary); each message names this
// package once, names the argument, and does not repeat a generic text the
// specific one says better.
func TestArgumentErrors(t *testing.T) {
	a := defaultAsset(t)
	m := base1DG(t, a, 1)
	n := a.Len()
	for _, tc := range []struct {
		name string
		err  error
		says string // a fragment the message must contain
	}{
		{"New nil mechanism", func() error { _, err := New(nil, a, Options{}); return err }(), "nil mechanism"},
		{"New nil asset", func() error { _, err := New(m, nil, Options{}); return err }(), "nil mechanism or asset"},
		{"classes nil mechanism", func() error {
			_, err := NewWithClasses(nil, a, Classes{}, mechanism.Options{}, Options{})
			return err
		}(), "nil mechanism"},
		{"MaxTextBytes", func() error { _, err := New(m, a, Options{MaxTextBytes: -1}); return err }(), "MaxTextBytes -1 not in"},
		{"RareRank = N", func() error {
			_, err := NewWithClasses(m, a, Classes{RareRank: n, Rare: 0.5}, mechanism.Options{}, Options{})
			return err
		}(), "RareRank 50000 not in [1, 49999]"},
		{"RareRank without ε", func() error {
			_, err := NewWithClasses(m, a, Classes{RareRank: 10}, mechanism.Options{}, Options{})
			return err
		}(), "RareRank 10 needs a rare-class ε"},
	} {
		if !errors.Is(tc.err, ErrInvalid) || errors.Is(tc.err, mechanism.ErrEmptyVocabulary) {
			t.Errorf("%s: %v: want ErrInvalid and not ErrEmptyVocabulary", tc.name, tc.err)
			continue
		}
		msg := tc.err.Error()
		if !strings.HasPrefix(msg, "privatize: ") || strings.Count(msg, "privatize:") != 1 {
			t.Errorf("%s: %q: want the prefix \"privatize: \" once", tc.name, msg)
		}
		if !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %q: want it to say %q", tc.name, msg, tc.says)
		}
		if strings.Contains(msg, "size limit") || strings.Contains(msg, "text privatizer") {
			t.Errorf("%s: %q: old wording", tc.name, msg)
		}
	}
}
