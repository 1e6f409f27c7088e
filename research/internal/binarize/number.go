package binarize

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// parseValue parses one embedding component. It accepts plain decimal
// notation only (digits, sign, point, exponent): strconv alone would also
// take hexadecimal floats and digit-separating underscores, which no
// embedding file uses and which would hide corruption. NaN and infinities
// are reported as ErrNonFinite, overflow of float32 as ErrBadFloat, and
// underflow rounds to zero as IEEE 754 does.
func parseValue(s string) (float32, string, error) {
	if s == "" {
		return 0, "empty value", ErrBadFloat
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E' {
			if isNonFiniteWord(s) {
				return 0, "value " + quoteShort(s), ErrNonFinite
			}
			return 0, "value " + quoteShort(s) + " is not a decimal number", ErrBadFloat
		}
	}
	f, err := strconv.ParseFloat(s, 32)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, "value " + quoteShort(s) + " overflows float32", ErrBadFloat
		}
		return 0, "value " + quoteShort(s) + " is not a decimal number", ErrBadFloat
	}
	if math.IsNaN(f) || math.IsInf(f, 0) { // unreachable with the filter above; kept as a guard
		return 0, "value " + quoteShort(s), ErrNonFinite
	}
	return float32(f), "", nil
}

func isNonFiniteWord(s string) bool {
	s = strings.TrimLeft(s, "+-")
	switch strings.ToLower(s) {
	case "nan", "inf", "infinity":
		return true
	}
	return false
}

// quoteShort quotes s for an error message, cutting it so that a corrupt
// multi-megabyte token cannot flood a log.
func quoteShort(s string) string {
	const max = 40
	if len(s) > max {
		return strconv.Quote(s[:max]) + "…"
	}
	return strconv.Quote(s)
}
