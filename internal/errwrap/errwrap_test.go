package errwrap

import (
	"errors"
	"io/fs"
	"testing"
)

func TestTag(t *testing.T) {
	sentinel := errors.New("generic text")
	other := errors.New("other sentinel")
	cause := &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}
	for _, tc := range []struct {
		name    string
		err     error
		msg     string
		is, not []error
	}{
		{"plain", Tag(sentinel, "pkg: %d is wrong", 3), "pkg: 3 is wrong", []error{sentinel}, []error{other}},
		{"one %w", Tag(sentinel, "pkg: x: %w", other), "pkg: x: other sentinel", []error{sentinel, other}, nil},
		{"two %w", Tag(sentinel, "pkg: %w, %w", other, cause), "pkg: other sentinel, open x: file does not exist", []error{sentinel, other, fs.ErrNotExist}, nil},
		{"nil sentinel", Tag(nil, "pkg: %w", other), "pkg: other sentinel", []error{other}, []error{sentinel}},
		{"no sentinel found without it", Tag(other, "pkg"), "pkg", []error{other}, []error{sentinel}},
		{"also", Also(Tag(sentinel, "pkg: %w", cause), other, nil), "pkg: open x: file does not exist", []error{sentinel, other, fs.ErrNotExist}, nil},
		{"also nothing", Also(errors.New("pkg: plain")), "pkg: plain", nil, []error{sentinel, other}},
	} {
		if got := tc.err.Error(); got != tc.msg {
			t.Errorf("%s: message %q, want %q", tc.name, got, tc.msg)
		}
		for _, e := range tc.is {
			if !errors.Is(tc.err, e) {
				t.Errorf("%s: errors.Is(_, %v) = false", tc.name, e)
			}
		}
		for _, e := range tc.not {
			if errors.Is(tc.err, e) {
				t.Errorf("%s: errors.Is(_, %v) = true", tc.name, e)
			}
		}
	}
	var pe *fs.PathError
	if !errors.As(Tag(sentinel, "pkg: %w", cause), &pe) || pe != cause {
		t.Error("errors.As does not reach the wrapped *fs.PathError")
	}
}
