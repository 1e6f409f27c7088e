package pipeline

import (
	"bytes"
	"math"
	"testing"
)

// roundTrip checks one coder on v: v comes back, and its bytes cut short
// or with a byte more are refused.
func roundTrip[T any](t *testing.T, v T, enc func(T) []byte, dec func([]byte) (T, error)) {
	t.Helper()
	p := enc(v)
	got, err := dec(p)
	// The encodings compared: every field is in them, a charge by its
	// bits (reflect.DeepEqual would call a NaN unequal to itself).
	if err != nil || !bytes.Equal(enc(got), p) {
		t.Errorf("%+v: decoded as %+v, %v", v, got, err)
	}
	for n := range len(p) {
		if _, err := dec(p[:n]); err == nil {
			t.Errorf("%+v: the first %d of %d bytes decode", v, n, len(p))
		}
	}
	if _, err := dec(append(p, 0)); err == nil {
		t.Errorf("%+v: decodes with a byte more", v)
	}
}

// The shuffles' coders give back what they were given, bit for bit (a
// NaN charge too), and refuse bytes cut short or with more after them.
func TestCoders(t *testing.T) {
	nan := math.Float64frombits(0x7ff8000000000001)
	for _, g := range []grants{
		{Refs: []ref{}},
		{Refs: []ref{{Source: "/in/a", Line: 1, Offset: 0, Sum: lineChecksum([]byte("0123456789abcdef")), Index: 4, Words: 3, Cost: 1.5}}, Records: 1},
		{Refs: []ref{{Source: "a", Index: 9000}, {Source: "a", Index: 2}, {Source: "b", Index: -1}, {Source: "b", Index: math.MaxInt32}}, Records: 4},
		{Refs: []ref{{Source: "a", Line: 9}, {Source: "a", Line: 10, Cost: nan}, {Source: "", Line: 2, Offset: 1 << 40}, {Source: "b", Words: -1, Cost: math.Inf(1)}}, Records: 7, Sorted: 2},
		// Charges repeated (by index), -0 apart from 0, lines and
		// offsets going back and to the extremes (differences wrap).
		{Refs: []ref{{Source: "a", Line: math.MaxInt64, Offset: math.MinInt64, Cost: 2.5}, {Source: "a", Line: math.MinInt64, Offset: math.MaxInt64, Cost: 2.5},
			{Source: "a", Line: 3, Cost: math.Copysign(0, -1)}, {Source: "a", Line: 2, Cost: 0}, {Source: "a", Line: 4, Cost: nan}, {Source: "a", Line: 5, Cost: nan}, {Source: "a", Line: 6, Cost: 2.5}}, Records: 7},
	} {
		roundTrip(t, g, encodeGrants, decodeGrants)
	}
	// More distinct charges than the element indexes, each twice.
	var many grants
	for i := range 2 * (maxCosts + 8) {
		many.Refs = append(many.Refs, ref{Source: "a", Line: int64(i), Cost: float64(i % (maxCosts + 8))})
	}
	roundTrip(t, many, encodeGrants, decodeGrants)
	for _, b := range []slotBatch{
		{Slots: []slot{}},
		{Slots: []slot{{}}},
		{Slots: []slot{{User: "ü", Line: 3, Offset: 70, Sum: lineChecksum([]byte("0123456789abcdef")), Words: 4, Cost: 2.25}, {User: "ü", Line: 4}, {Line: 5}, {User: "v"}}},
		{Slots: []slot{{Marker: true, Source: "gs://b/in/x.jsonl", Line: 1 << 33, Offset: -1, End: 1 << 21, Records: 1000, Cost: nan}}},
		{Slots: []slot{{Marker: true, Seq: true, Source: "/in/x.jsonl.gz", Sum: lineChecksum([]byte("fedcba9876543210")), Line: 7, Offset: 3 << 20, End: 4 << 20, Records: 9}}},
		{Slots: []slot{{User: "u", Index: 5}, {User: "u", Index: 3}, {User: "u", Index: 1 << 20, Seq: true}}},
	} {
		roundTrip(t, b, encodeSlotBatch, decodeSlotBatch)
	}
	for _, b := range []segmentBits{
		{},
		{Line: 1, Offset: 0, End: 100, Records: 3, Digest: lineChecksum([]byte("0123456789abcdef")), Grants: lineChecksum{9}, Bits: []byte{5}},
		{Line: 1 << 40, Offset: -1, End: math.MinInt64, Records: -2, Bits: make([]byte, 1<<17)},
	} {
		roundTrip(t, b, encodeSegmentBits, decodeSegmentBits)
	}
	// A marker's flags are the byte before its End and Records (one byte
	// each here): 4 is no flag.
	p := encodeSlotBatch(slotBatch{Slots: []slot{{Marker: true, Seq: true, End: 5, Records: 2}}})
	if _, err := decodeSlotBatch(p); err != nil || p[len(p)-3] != 3 {
		t.Fatalf("%x: %v", p, err)
	}
	p[len(p)-3] = 4
	if _, err := decodeSlotBatch(p); err == nil {
		t.Error("a slot with flag byte 4 decodes")
	}
	for _, b := range []lineBatch{
		{Lines: []outLine{}},
		{Lines: []outLine{{User: "u", JSON: `{"user":"u"}`}}},
		{Lines: []outLine{{User: "ü", JSON: "{}"}, {}, {User: "b", JSON: "{\"text\":\"a\\nb\"}"}, {User: "b", JSON: "{}"}}},
	} {
		roundTrip(t, b, encodeLineBatch, decodeLineBatch)
	}
	if _, err := decodeGrants(encodeGrants(grants{Refs: []ref{{}}, Sorted: 2})); err == nil {
		t.Error("grants with Sorted past its refs decode")
	}
}

// FuzzCoders: any bytes decode to an element or an error, never a panic,
// and an element decoded comes back the same through its coder.
func FuzzCoders(f *testing.F) {
	f.Add(uint8(0), encodeGrants(grants{Refs: []ref{{Source: "s", Line: 3, Sum: lineChecksum{'x'}, Cost: 1}, {Source: "s"}}, Records: 2}))
	f.Add(uint8(1), encodeSlotBatch(slotBatch{Slots: []slot{{User: "u", Marker: true, End: 9}, {User: "u"}}}))
	f.Add(uint8(2), encodeLineBatch(lineBatch{Lines: []outLine{{User: "u", JSON: "{}"}, {User: "v"}}}))
	f.Add(uint8(2), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Add(uint8(3), encodeSegmentBits(segmentBits{Line: 3, End: 9, Records: 9, Bits: []byte{1, 0}}))
	f.Fuzz(func(t *testing.T, which uint8, p []byte) {
		switch which % 4 {
		case 3:
			stable(t, p, encodeSegmentBits, decodeSegmentBits)
		case 0:
			stable(t, p, encodeGrants, decodeGrants)
		case 1:
			stable(t, p, encodeSlotBatch, decodeSlotBatch)
		case 2:
			stable(t, p, encodeLineBatch, decodeLineBatch)
		}
	})
}

// stable: if p decodes, its element encodes to bytes that decode to an
// element with the same encoding.
func stable[T any](t *testing.T, p []byte, enc func(T) []byte, dec func([]byte) (T, error)) {
	v, err := dec(p)
	if err != nil {
		return
	}
	q := enc(v)
	again, err := dec(q)
	if err != nil || !bytes.Equal(enc(again), q) {
		t.Fatalf("%x decodes to %+v, which comes back as %+v, %v", p, v, again, err)
	}
}

// A user's refs as the combine sends them (one file, lines some way
// apart, a few distinct charges) take about 25 bytes each, 16 of them
// the line's checksum: the combine's shuffle is the pipeline's largest.
func TestGrantsEncodingSize(t *testing.T) {
	var g grants
	for i := range 1000 {
		w := 5 + i%11
		g.Refs = append(g.Refs, ref{Source: "/in/a.jsonl", Line: int64(1000 * i), Offset: int64(70000 * i), Sum: lineChecksum([]byte("0123456789abcdef")), Words: w, Cost: float64(w) * 0.1})
	}
	if n := len(encodeGrants(g)); n > 25*len(g.Refs)+100 {
		t.Errorf("%d refs encode in %d bytes, want at most 25 each", len(g.Refs), n)
	}
}
