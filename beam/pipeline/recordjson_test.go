package pipeline

import (
	"math"
	"testing"
)

// testRecord is a record line with its user, source and line.
type testRecord struct {
	User, Source string
	Line         int64
	Rec          recordLine
}

// checkRecordJSON: appendRecordJSON writes what encoding/json writes for
// the same Output.
func checkRecordJSON(t *testing.T, l testRecord) {
	t.Helper()
	want, err := toJSON(l.Rec.output(l.User, l.Source, l.Line))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(appendRecordJSON(nil, l.User, l.Source, l.Line, &l.Rec)); got != want {
		t.Errorf("%+v:\n got %s\nwant %s", l, got, want)
	}
}

// A record's line is encoding/json's, byte for byte: escapes, HTML
// characters, invalid UTF-8, U+2028, floats in both notations and null.
func TestRecordJSON(t *testing.T) {
	for _, tc := range []struct {
		user, source, text string
		te, uf             float64
	}{
		{"u", "/in/a.jsonl", "plain words", 3, 2.25},
		{"ü", "gs://b/x", "", 0, 0},
		{"a\"b\\c", "tab\there", "line\nbreak\r\x00\x01\x1f\x7f <b>&amp;</b>", 1e-7, 1e21},
		{"\xff\xfe", "x\u2028y\u2029z", "caf\xc3 é 😀 \u2027", math.NaN(), math.Inf(1)},
		{"u", "s", "x", math.Copysign(0, -1), math.Inf(-1)},
		{"u", "s", "x", 123456789.123456789, 1e-6},
		{"u", "s", "x", 9.999999999e20, 5e-324},
		{"u", "s", "x", 1.5e-10, 1e300},
	} {
		for _, status := range []recordStatus{released, withheld} {
			checkRecordJSON(t, testRecord{User: tc.user, Source: tc.source, Line: 42,
				Rec: recordLine{Status: status, Text: tc.text, Words: 7, OOV: 2, TotalEpsilon: tc.te, UnitFree: tc.uf}})
		}
	}
	checkRecordJSON(t, testRecord{Line: -1 << 62, Rec: recordLine{Status: released, Words: -3, OOV: 1 << 30}})
}

func FuzzRecordJSON(f *testing.F) {
	f.Add("u", "s", int64(1), "text <&> \n", 7, 0, 1.5, 3.25)
	f.Add("\xff", "\u2028", int64(-1), "\x00", -1, 9, 1e-7, math.NaN())
	f.Fuzz(func(t *testing.T, user, source string, line int64, text string, words, oov int, te, uf float64) {
		checkRecordJSON(t, testRecord{User: user, Source: source, Line: line,
			Rec: recordLine{Status: released, Text: text, Words: words, OOV: oov, TotalEpsilon: te, UnitFree: uf}})
	})
}
