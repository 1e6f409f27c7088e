package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/linereader"
)

// record is a whole `privatize -json` record, as a reader decodes it; with
// encoding/json it is also the reference the hand-written text must match.
type record struct {
	Text string `json:"text"`
	recordTail
}

// referenceJSON is what the records were before they were written by hand:
// encoding/json's Encoder with SetEscapeHTML(false).
func referenceJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestWriteJSONStringMatchesEncodingJSON: the hand-written escaping gives
// exactly encoding/json's bytes, for every byte value, invalid UTF-8,
// control characters, <>&, U+2028/2029 and random strings.
func TestWriteJSONStringMatchesEncodingJSON(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	cases := []string{"", "plain", `"quoted" \ back`, "\x00\x01\x1f\x7f\b\f\n\r\t", "<a href=x>&amp;</a>",
		"line\u2028para\u2029end", "emoji 😀 ok", "\xff\xfe bad", "\xe2\x80", "\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa",
		"\xed\xa0\x80 surrogate", "\xf4\x90\x80\x80 too big", "\xc0\xaf overlong", string(all), strings.Repeat("a-", 1000)}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			switch r.IntN(4) {
			case 0:
				b[i] = byte(r.IntN(256))
			case 1:
				b[i] = byte(r.IntN(0x20))
			default:
				const pick = "ab\"\\<>&\xe2\x80\xa8\xa9\xf0\x9f"
				b[i] = pick[r.IntN(len(pick))]
			}
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		var got bytes.Buffer
		w := bufio.NewWriterSize(&got, 16) // small: escapes across buffer boundaries
		w.WriteString(`{"text":"`)
		writeJSONString(w, s)
		w.WriteString("\"}\n")
		w.Flush()
		if want := referenceJSON(t, struct {
			Text string `json:"text"`
		}{s}); got.String() != want {
			t.Fatalf("%q:\ngot  %s\nwant %s", s, got.String(), want)
		}
	}
}

// testPrivatizer opens BRR at ε = 0.5 per bit with cfg's other settings,
// closed when the test ends.
func testPrivatizer(t *testing.T, cfg core.Config) *core.Privatizer {
	t.Helper()
	cfg.Mechanism, cfg.Epsilon = core.BRR, 0.5
	p, err := core.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestRecordMatchesEncodingJSON: a record written by recordEncoder is
// byte for byte what encoding/json makes of the same result, and the
// last text before the end of the input ends its record.
func TestRecordMatchesEncodingJSON(t *testing.T) {
	p := testPrivatizer(t, core.Config{OOV: core.Placeholder, Placeholder: "<\"\u2028\x01>"})
	texts := []string{"The cat sat on the mat.\n", "x9 @@@ \"quoted\" \t tab\n", "no newline at the end"}
	res, err := p.PrivatizeBlock(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	w := bufio.NewWriter(&got)
	enc := recordEncoder{info: p.Info(), json: true}
	if err := enc.write(w, res, func(i int) bool { return endsLine(texts[i], i == len(texts)-1) }); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	want := ""
	for _, r := range res {
		want += referenceJSON(t, record{Text: r.Text, recordTail: newRecordTail(r.Accounting, p.Info())})
	}
	if got.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", got.String(), want)
	}
}

// TestJSONLongLineOneRecord: a line privatized in parts gives one record
// whose counts are the sums of the parts' (every NUL byte is one OOV
// token, every "a" one word).
// 1-DG (constant work per word) keeps half a million words cheap on
// every platform, 386 without the assembly kernels included.
func TestJSONLongLineOneRecord(t *testing.T) {
	for _, tc := range []struct {
		line      string
		words, oo int
	}{
		{strings.Repeat("\x00", blockBytes+4096) + "\n", 0, blockBytes + 4096},
		{strings.Repeat("a ", blockBytes/2+4096) + "\nb\n", blockBytes/2 + 4096, 0},
	} {
		var out, errb bytes.Buffer
		if err := run([]string{"privatize", "-json", "-mechanism", "1dg", "-epsilon", "0.5"}, strings.NewReader(tc.line), &out, &errb); err != nil {
			t.Fatal(err, errb.String())
		}
		recs := strings.SplitAfter(out.String(), "\n")
		var r record
		if err := json.Unmarshal([]byte(recs[0]), &r); err != nil {
			t.Fatalf("%.200s: %v", recs[0], err)
		}
		if r.Words != tc.words || r.OOV != tc.oo || !strings.HasSuffix(r.Text, "\n") || strings.Count(r.Text, "\n") != 1 ||
			*r.TotalEpsilon != float64(tc.words)*0.5 {
			t.Fatalf("words %d oov %d totalEpsilon %v, want %d %d", r.Words, r.OOV, *r.TotalEpsilon, tc.words, tc.oo)
		}
	}
}

// TestJSONLongLineAllocations: -json on a line of two parts allocates in
// all (garbage included, so more than it holds at once) at most 16 times
// the input plus 8·blockBytes, for each adversarial shape. Before the text
// was streamed and the line privatized in parts, a line of NUL bytes took
// ~39 times; today ~10-11 times. The peak-memory bound of
// docs/TEXT_PRIVACY.md ("Memory", 8 times the input plus a constant) is a
// resident-set figure, measured with /usr/bin/time: total allocation grows
// with the number of parts even when the peak does not, so this test
// guards the encoding and the parts' working set, not the peak. Lines of
// many words ("a a a …") are left to those measurements: millions of BRR
// queries take minutes.
func TestJSONLongLineAllocations(t *testing.T) {
	n := 2 * blockBytes
	p := testPrivatizer(t, core.Config{})
	rep := func(s string) string { return strings.Repeat(s, n/len(s)) }
	shapes := map[string]string{"nul": rep("\x00"), "emoji": rep("😀"), "word": rep("a")}
	for name, in := range shapes {
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		err := stream(context.Background(), privatizeBlocks(p, 0), 1, partLines, linereader.New(strings.NewReader(in), 2*n), discard{}, recordEncoder{info: p.Info(), json: true}, nil)
		runtime.ReadMemStats(&ms1)
		if err != nil {
			t.Fatal(name, err)
		}
		got := ms1.TotalAlloc - ms0.TotalAlloc
		t.Logf("%s: %d bytes allocated for %d input bytes (%.2f×)", name, got, len(in), float64(got)/float64(len(in)))
		if limit := uint64(16*len(in) + 8*blockBytes); got > limit {
			t.Errorf("%s: %d bytes allocated for %d input bytes, over 16×input + 8×blockBytes = %d", name, got, len(in), limit)
		}
	}
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }
