package typedtext

import (
	"io"
	"strings"
	"testing"
)

func TestCapped(t *testing.T) {
	tests := []struct {
		in   string
		max  int64
		fail bool
	}{
		{"", 0, false},
		{"abc", 3, false}, // exactly the limit
		{"abcd", 3, true}, // one byte over
		{"abc", 100, false},
	}
	for _, tc := range tests {
		got, err := io.ReadAll(newCapped(strings.NewReader(tc.in), tc.max, "input"))
		if tc.fail != (err != nil) {
			t.Errorf("%q, max %d: err = %v", tc.in, tc.max, err)
		}
		if !tc.fail && string(got) != tc.in {
			t.Errorf("%q, max %d: read %q", tc.in, tc.max, got)
		}
	}
}
