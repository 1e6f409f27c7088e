package linereader

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

var errBoom = errors.New("boom")

// readAll reads lines until an error and returns them with the error.
func readAll(r *Reader) ([]string, error) {
	var lines []string
	for {
		line, err := r.ReadLine()
		if line != "" {
			lines = append(lines, line)
		}
		if err != nil {
			return lines, err
		}
	}
}

func TestReadLine(t *testing.T) {
	long := strings.Repeat("x", 200<<10) + "\n" // spans several buffer fills
	many := strings.Repeat("ab\n", 10000)
	tests := []struct {
		name    string
		in      io.Reader
		maxLine int
		want    []string
		err     error
	}{
		{"empty", strings.NewReader(""), 10, nil, io.EOF},
		{"no trailing newline", strings.NewReader("a\nbc"), 10, []string{"a\n", "bc"}, io.EOF},
		{"only newlines", strings.NewReader("\n\n"), 1, []string{"\n", "\n"}, io.EOF},
		{"CRLF kept", strings.NewReader("a\r\nb\r\n"), 10, []string{"a\r\n", "b\r\n"}, io.EOF},
		{"exactly maxLine with newline", strings.NewReader("abc\nd\n"), 4, []string{"abc\n", "d\n"}, io.EOF},
		{"exactly maxLine, last line", strings.NewReader("abcd"), 4, []string{"abcd"}, io.EOF},
		{"maxLine+1 with newline", strings.NewReader("ok\nabcd\nnever\n"), 4, []string{"ok\n"}, ErrLineTooLong},
		{"maxLine+1, last line", strings.NewReader("abcde"), 4, nil, ErrLineTooLong},
		{"many short lines", strings.NewReader(many), 3, strings.SplitAfter(many, "\n")[:10000], io.EOF},
		{"long line within a large maxLine", strings.NewReader(long + "y"), len(long), []string{long, "y"}, io.EOF},
		{"long line over a large maxLine", strings.NewReader(long), len(long) - 1, nil, ErrLineTooLong},
		{"one byte at a time", iotest.OneByteReader(strings.NewReader("ab\ncd\ne")), 3, []string{"ab\n", "cd\n", "e"}, io.EOF},
		{"one byte at a time, too long", iotest.OneByteReader(strings.NewReader("ab\ncdef")), 3, []string{"ab\n"}, ErrLineTooLong},
		{"data with EOF", iotest.DataErrReader(strings.NewReader("ab\ncd")), 3, []string{"ab\n", "cd"}, io.EOF},
		{"error mid-line", io.MultiReader(strings.NewReader("ab\ncd"), iotest.ErrReader(errBoom)), 10, []string{"ab\n", "cd"}, errBoom},
		{"error after a line", io.MultiReader(strings.NewReader("ab\n"), iotest.ErrReader(errBoom)), 10, []string{"ab\n"}, errBoom},
		{"nil reader", nil, 10, nil, errNotReady},
		{"maxLine 0", strings.NewReader("a\n"), 0, nil, errNotReady},
		{"maxLine negative", strings.NewReader("a\n"), -1, nil, errNotReady},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := New(tc.in, tc.maxLine)
			got, err := readAll(r)
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d lines, want %d (first: %.20q)", len(got), len(tc.want), got)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("line %d = %.40q, want %.40q", i, got[i], tc.want[i])
				}
			}
			if cap(r.line) > max(tc.maxLine, 0) {
				t.Errorf("line buffer grew to %d bytes, maxLine %d", cap(r.line), tc.maxLine)
			}
			// The error is final.
			if line, err2 := r.ReadLine(); line != "" || !errors.Is(err2, tc.err) {
				t.Errorf("after the end: %q, %v; want \"\", %v", line, err2, tc.err)
			}
			if err != nil && strings.Count(err.Error(), "linereader:") > 1 {
				t.Errorf("error %q repeats its prefix", err)
			}
		})
	}
}

func TestZeroReader(t *testing.T) {
	var r Reader
	if r.Buffered() {
		t.Error("zero Reader reports a buffered line")
	}
	if line, err := r.ReadLine(); line != "" || !errors.Is(err, errNotReady) {
		t.Errorf("zero Reader: %q, %v", line, err)
	}
}

// TestBuffered: true exactly when the next ReadLine need not read, so
// lines that arrived together can be grouped and a partial one is not
// waited for.
func TestBuffered(t *testing.T) {
	// Two reads: "a\nb\nc" arrives first, then "d\n", then the end.
	r := New(io.MultiReader(strings.NewReader("a\nb\nc"), strings.NewReader("d\n")), 100)
	steps := []struct {
		line     string
		buffered bool
	}{
		{"a\n", true},   // "b\n" is buffered
		{"b\n", false},  // only "c" is: the next line needs a read
		{"cd\n", false}, // the second read gave "d\n" and nothing more
	}
	if r.Buffered() {
		t.Fatal("Buffered before any read")
	}
	for _, st := range steps {
		line, err := r.ReadLine()
		if err != nil || line != st.line {
			t.Fatalf("ReadLine = %q, %v; want %q", line, err, st.line)
		}
		if got := r.Buffered(); got != st.buffered {
			t.Fatalf("after %q: Buffered = %v, want %v", line, got, st.buffered)
		}
	}
	if _, err := r.ReadLine(); err != io.EOF {
		t.Fatalf("want io.EOF, got %v", err)
	}
	if !r.Buffered() {
		t.Error("after the end Buffered must be true: ReadLine returns at once")
	}
}

// generator hands out an endless line of 'a' (up to limit bytes, then
// io.EOF) without holding it, counting what it handed out.
type generator struct{ handed, limit int64 }

func (g *generator) Read(p []byte) (int, error) {
	if g.handed >= g.limit {
		return 0, io.EOF
	}
	n := int64(len(p))
	n = min(n, g.limit-g.handed)
	for i := range p[:n] {
		p[i] = 'a'
	}
	g.handed += n
	return int(n), nil
}

// TestHugeLineBounded: 500 MB without a newline is refused after reading
// at most maxLine plus one buffer, not buffered whole.
func TestHugeLineBounded(t *testing.T) {
	const maxLine = 1 << 20
	g := &generator{limit: 500_000_000}
	r := New(g, maxLine)
	line, err := r.ReadLine()
	if !errors.Is(err, ErrLineTooLong) || line != "" {
		t.Fatalf("ReadLine = %d bytes, %v; want ErrLineTooLong", len(line), err)
	}
	if g.handed > maxLine+bufSize {
		t.Fatalf("read %d bytes for maxLine %d; bound %d", g.handed, maxLine, maxLine+bufSize)
	}
	if g.handed <= maxLine {
		t.Fatalf("refused after %d bytes, not more than maxLine %d", g.handed, maxLine)
	}
	t.Logf("refused after reading %d bytes (maxLine %d)", g.handed, maxLine)
}

// FuzzReadLine: with no over-long line, the lines concatenate to the
// input, each ends in '\n' but maybe the last, and none exceeds maxLine;
// with one, ErrLineTooLong comes after exactly the lines before it.
func FuzzReadLine(f *testing.F) {
	f.Add("a\nb\r\n\nc", 3, uint8(1))
	f.Add("", 1, uint8(0))
	f.Add("abcdef\n", 4, uint8(2))
	f.Fuzz(func(t *testing.T, in string, maxLine int, chunk uint8) {
		if maxLine < 1 || maxLine > 1<<20 {
			return
		}
		var src io.Reader = strings.NewReader(in)
		if chunk%2 == 1 {
			src = iotest.OneByteReader(src)
		}
		lines, err := readAll(New(src, maxLine))
		want := strings.SplitAfter(in, "\n")
		if want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		tooLong := -1
		for i, w := range want {
			if len(w) > maxLine {
				tooLong = i
				break
			}
		}
		if tooLong >= 0 {
			if !errors.Is(err, ErrLineTooLong) || len(lines) != tooLong {
				t.Fatalf("line %d is too long: got %d lines, %v", tooLong, len(lines), err)
			}
			want = want[:tooLong]
		} else if err != io.EOF {
			t.Fatalf("error %v, want io.EOF", err)
		}
		if strings.Join(lines, "") != strings.Join(want, "") || len(lines) != len(want) {
			t.Fatalf("lines %q, want %q", lines, want)
		}
		for i, l := range lines {
			if len(l) > maxLine || (i < len(lines)-1 && !strings.HasSuffix(l, "\n")) {
				t.Fatalf("bad line %d: %q", i, l)
			}
		}
	})
}

// TestLongLineBufferReleased: after a line longer than the read buffer,
// the reader keeps no line buffer of that size; short lines keep theirs.
func TestLongLineBufferReleased(t *testing.T) {
	long := strings.Repeat("x", 4*bufSize) + "\n"
	r := New(strings.NewReader(long+"short\n"), 8*bufSize)
	if l, err := r.ReadLine(); err != nil || l != long {
		t.Fatalf("ReadLine = %d bytes, %v", len(l), err)
	}
	if cap(r.line) != 0 {
		t.Fatalf("after a %d-byte line the reader keeps a %d-byte buffer", len(long), cap(r.line))
	}
	if l, err := r.ReadLine(); err != nil || l != "short\n" {
		t.Fatalf("ReadLine = %q, %v", l, err)
	}
	if cap(r.line) == 0 || cap(r.line) > bufSize {
		t.Fatalf("a short line's buffer has capacity %d", cap(r.line))
	}
}

// SkipLine reads through an over-long line and ReadLine goes on with the
// next one, for every position of the long line relative to the read
// buffer (a buffer of 8 bytes: maxLine 7) and at the end of the input.
func TestSkipLine(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string // the lines returned, "!" for each skipped one
	}{
		{"long line first", "0123456789abc\nok\n", []string{"!", "ok\n"}},
		{"long line between", "a\n0123456789abcdefghijklmnop\nb\n", []string{"a\n", "!", "b\n"}},
		{"long line last, no newline", "a\n0123456789abcdefghij", []string{"a\n", "!"}},
		{"long line last, newline", "a\n0123456789\n", []string{"a\n", "!"}},
		{"two long lines", "0123456789\n0123456789\nz", []string{"!", "!", "z"}},
		{"exactly maxLine is not long", "012345\n", []string{"012345\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(strings.NewReader(c.in), 7)
			var got []string
			for {
				l, err := r.ReadLine()
				if errors.Is(err, ErrLineTooLong) {
					got = append(got, "!")
					if err := r.SkipLine(); err != nil {
						t.Fatalf("SkipLine: %v", err)
					}
					continue
				}
				if l != "" {
					got = append(got, l)
				}
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("ReadLine: %v", err)
				}
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") {
				t.Errorf("lines %q, want %q", got, c.want)
			}
		})
	}
	// Without a long line to skip, SkipLine is an error and changes nothing.
	r := New(strings.NewReader("a\nb\n"), 7)
	if err := r.SkipLine(); err == nil {
		t.Error("SkipLine before any long line: no error")
	}
	if l, _ := r.ReadLine(); l != "a\n" {
		t.Errorf("after a refused SkipLine, ReadLine = %q, want \"a\\n\"", l)
	}
}
