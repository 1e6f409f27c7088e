package pipeline

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// recordLine is a record's output (Output) without its user, source and
// line, which its job holds: what the re-read encodes in the segment's
// records file (appendRecordJSON). A NaN or infinite float is JSON null,
// as Output's nil.
type recordLine struct {
	Status       recordStatus
	Text         string
	Words        int
	OOV          int
	TotalEpsilon float64
	UnitFree     float64
}

// recordStatus is a record line's Output.Status.
type recordStatus uint8

const (
	noRecord recordStatus = iota // not set
	released                     // StatusReleased
	withheld                     // StatusWithheld
)

func (s recordStatus) String() string {
	switch s {
	case released:
		return StatusReleased
	case withheld:
		return StatusWithheld
	}
	return ""
}

// output is the Output r is, as the record (user, source, line)'s.
func (r *recordLine) output(user, source string, line int64) Output {
	return Output{User: user, Source: source, Line: line, Status: r.Status.String(), Text: r.Text,
		Words: r.Words, OOV: r.OOV, TotalEpsilon: finite(r.TotalEpsilon), UnitFree: finite(r.UnitFree)}
}

// appendRecordJSON appends the JSON of r as the record (user, source,
// line)'s, byte for byte what encoding/json gives for r.output(user,
// source, line) (TestRecordJSON, FuzzRecordJSON compare them), without its
// reflection and allocations: every record line is encoded so.
func appendRecordJSON(b []byte, user, source string, line int64, r *recordLine) []byte {
	b = append(b, `{"user":`...)
	b = appendJSONString(b, user)
	b = append(b, `,"source":`...)
	b = appendJSONString(b, source)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, line, 10)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, r.Status.String())
	b = append(b, `,"text":`...)
	b = appendJSONString(b, r.Text)
	b = append(b, `,"words":`...)
	b = strconv.AppendInt(b, int64(r.Words), 10)
	b = append(b, `,"oov":`...)
	b = strconv.AppendInt(b, int64(r.OOV), 10)
	b = append(b, `,"totalEpsilon":`...)
	b = appendJSONFloat(b, r.TotalEpsilon)
	b = append(b, `,"unitFree":`...)
	b = appendJSONFloat(b, r.UnitFree)
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// plainJSON[c]: the ASCII byte c is written as itself in a JSON string
// (encoding/json's escaping: not a control, '"', '\\', '<', '>' or '&').
var plainJSON = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s as encoding/json's Marshal writes a string:
// '"', '\\' and the control bytes escaped (\b \f \n \r \t, others
// \u00XX), '<', '>' and '&' as \u003c, \u003e and \u0026, invalid UTF-8
// as \ufffd, U+2028 and U+2029 as \u2028 and \u2029, everything else as
// it is.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if plainJSON[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONFloat appends f as encoding/json writes a *float64: null for
// NaN and ±Inf (finite's nil), else the shortest decimal that reads back
// as f, in exponent form below 1e-6 and from 1e21 on, with a one-digit
// negative exponent not padded (1e-7, not 1e-07).
func appendJSONFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
