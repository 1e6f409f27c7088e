package pipeline

import (
	"reflect"
	"testing"
)

// lineBatch's coder gives back what it was given, and refuses bytes cut
// short or with more after the batch.
func TestLineBatchCoder(t *testing.T) {
	cases := []lineBatch{
		{},
		{Lines: []outLine{{User: "u", JSON: `{"user":"u"}`}}},
		{Lines: []outLine{{User: "ü", Source: "/in/a.jsonl", Line: 1 << 40, JSON: "{}"}, {Line: -1}, {User: "b", Source: "gs://x/y", Line: 7, JSON: "{\"text\":\"a\\nb\"}"}}},
	}
	for _, b := range cases {
		p := encodeLineBatch(b)
		got, err := decodeLineBatch(p)
		if err != nil || len(got.Lines) != len(b.Lines) || len(b.Lines) > 0 && !reflect.DeepEqual(got, b) {
			t.Errorf("%+v: decoded as %+v, %v", b, got, err)
		}
		for n := range len(p) {
			if _, err := decodeLineBatch(p[:n]); err == nil {
				t.Errorf("%+v: the first %d of %d bytes decode", b, n, len(p))
			}
		}
		if _, err := decodeLineBatch(append(p, 0)); err == nil {
			t.Errorf("%+v: decodes with a byte more", b)
		}
	}
}

// FuzzLineBatchCoder: any bytes decode to a batch or an error, never a
// panic, and a batch decoded comes back the same through the coder.
func FuzzLineBatchCoder(f *testing.F) {
	f.Add(encodeLineBatch(lineBatch{Lines: []outLine{{User: "u", Source: "s", Line: 3, JSON: "{}"}}}))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, p []byte) {
		b, err := decodeLineBatch(p)
		if err != nil {
			return
		}
		again, err := decodeLineBatch(encodeLineBatch(b))
		if err != nil || len(b.Lines) > 0 && !reflect.DeepEqual(again, b) || len(again.Lines) != len(b.Lines) {
			t.Fatalf("%x decodes to %+v, which comes back as %+v, %v", p, b, again, err)
		}
	})
}
