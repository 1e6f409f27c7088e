package pipeline

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll reads every line as readFn does: a refused line is "!" and is
// skipped.
func readAll(r *lineReader) ([]string, error) {
	var out []string
	for {
		l, err := r.readLine()
		switch {
		case errors.Is(err, errLineTooLong):
			out = append(out, "!")
			if err := r.skipLine(); err != nil {
				return out, err
			}
			continue
		case err == io.EOF:
			return out, nil
		case err != nil:
			return out, err
		}
		out = append(out, l)
	}
}

// Lines come back byte for byte, the last without its '\n' when the file
// lacks it; a line over the bound (its '\n' counted) is refused and
// skipped, whatever the file's reads deliver at a time.
func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 3*lineBuf+7)
	cases := []struct {
		name    string
		in      string
		maxLine int
		want    []string
	}{
		{"empty file", "", 10, nil},
		{"one line", "a b\n", 10, []string{"a b\n"}},
		{"last line without newline", "a\nbc", 10, []string{"a\n", "bc"}},
		{"CRLF kept", "a\r\nb\r\n", 10, []string{"a\r\n", "b\r\n"}},
		{"empty lines", "\n\na\n", 10, []string{"\n", "\n", "a\n"}},
		{"exactly maxLine with its newline", "abcd\nab\n", 5, []string{"abcd\n", "ab\n"}},
		{"one byte over with its newline", "abcde\nab\n", 5, []string{"!", "ab\n"}},
		{"exactly maxLine at the end", "ab\nabcde", 5, []string{"ab\n", "abcde"}},
		{"one byte over at the end", "ab\nabcdef", 5, []string{"ab\n", "!"}},
		{"long lines between short ones", "a\n" + long + "\nb\n" + long + "\n" + long + "\nc", 100, []string{"a\n", "!", "b\n", "!", "!", "c"}},
		{"a line longer than the read buffer, within the bound", "a\n" + long + "\nb", len(long) + 1, []string{"a\n", long + "\n", "b"}},
		{"the long line is the last", "a\n" + long, 100, []string{"a\n", "!"}},
	}
	readers := []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"whole", func(r io.Reader) io.Reader { return r }},
		{"one byte at a time", iotest.OneByteReader},
		{"half", iotest.HalfReader},
		{"EOF with the data", iotest.DataErrReader},
	}
	for _, c := range cases {
		for _, rd := range readers {
			got, err := readAll(newLineReader(rd.wrap(strings.NewReader(c.in)), c.maxLine))
			if err != nil || strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
				t.Errorf("%s, %s: got %q, %v; want %q", c.name, rd.name, short(got), err, short(c.want))
			}
		}
	}
}

// short keeps a failure's message readable.
func short(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		if len(l) > 20 {
			l = l[:20] + "…"
		}
		out[i] = l
	}
	return out
}

// Memory is bounded by maxLine, not by the line: refusing a 1 MiB line
// keeps at most maxLine bytes, and a long accepted line's buffer is not
// kept for the lines after it.
func TestLineReaderMemory(t *testing.T) {
	huge := strings.Repeat("y", 1<<20)
	r := newLineReader(strings.NewReader(huge+"\nok\n"), 1000)
	if _, err := r.readLine(); !errors.Is(err, errLineTooLong) {
		t.Fatalf("a 1 MiB line with maxLine 1000: %v, want errLineTooLong", err)
	}
	if c := cap(r.line); c > 1000 {
		t.Errorf("refusing the line kept a %d-byte buffer, want ≤ 1000", c)
	}
	if err := r.skipLine(); err != nil {
		t.Fatal(err)
	}
	if l, err := r.readLine(); l != "ok\n" || err != nil {
		t.Fatalf("after the skip: %q, %v", l, err)
	}

	r = newLineReader(strings.NewReader(huge+"\nok\n"), 2<<20)
	if l, err := r.readLine(); len(l) != len(huge)+1 || err != nil {
		t.Fatalf("a 1 MiB line within the bound: %d bytes, %v", len(l), err)
	}
	if r.line != nil {
		t.Errorf("the 1 MiB line's buffer (%d bytes) was kept", cap(r.line))
	}
}

// The file's error comes back with the part of the line read before it,
// and is final; so is one met while skipping a refused line.
func TestLineReaderErrors(t *testing.T) {
	boom := errors.New("boom")
	failing := func(s string) io.Reader { return io.MultiReader(strings.NewReader(s), iotest.ErrReader(boom)) }

	r := newLineReader(failing("a\nbc"), 10)
	if l, err := r.readLine(); l != "a\n" || err != nil {
		t.Fatalf("first line: %q, %v", l, err)
	}
	if l, err := r.readLine(); l != "bc" || !errors.Is(err, boom) {
		t.Fatalf("second line: %q, %v; want \"bc\", boom", l, err)
	}
	if _, err := r.readLine(); !errors.Is(err, boom) {
		t.Fatalf("after the error: %v, want boom again", err)
	}

	r = newLineReader(failing(strings.Repeat("z", 100)), 10)
	if _, err := r.readLine(); !errors.Is(err, errLineTooLong) {
		t.Fatalf("long line: %v", err)
	}
	if err := r.skipLine(); !errors.Is(err, boom) {
		t.Fatalf("skipping into the error: %v, want boom", err)
	}
	if _, err := r.readLine(); !errors.Is(err, boom) {
		t.Fatalf("after the skip's error: %v, want boom", err)
	}
}

// off is the offset of each line's start, and skipTo goes forward to any
// such offset, by a seek or by reading through (a file that cannot seek:
// a compressed one), past lines longer than the read buffer and refused
// ones alike; going back, or past the end, is an error.
func TestLineReaderSkipTo(t *testing.T) {
	long := strings.Repeat("y", 2*lineBuf)
	lines := []string{"a\n", "bb\n", long + "\n", "c\n", strings.Repeat("z", 300) + "\n", "\n", "d\n", "e"}
	in := strings.Join(lines, "")
	for _, tc := range []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"seeker", func(r io.Reader) io.Reader { return r }},
		{"reader", func(r io.Reader) io.Reader { return iotest.HalfReader(r) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The offsets, as readFn sees them.
			r := newLineReader(tc.wrap(strings.NewReader(in)), 200)
			var offs []int64
			for {
				offs = append(offs, r.off)
				_, err := r.readLine()
				if errors.Is(err, errLineTooLong) {
					err = r.skipLine()
				}
				if err == io.EOF {
					break
				}
			}
			offs = offs[:len(offs)-1]
			if len(offs) != len(lines) {
				t.Fatalf("%d offsets for %d lines", len(offs), len(lines))
			}
			for _, pick := range [][]int{{0, 1, 3, 7}, {1}, {3, 6}, {2, 3}, {7}} {
				r := newLineReader(tc.wrap(strings.NewReader(in)), 200)
				for _, i := range pick {
					if err := r.skipTo(offs[i]); err != nil {
						t.Fatalf("skipTo line %d: %v", i, err)
					}
					l, err := r.readLine()
					if len(lines[i]) > 200 {
						if !errors.Is(err, errLineTooLong) {
							t.Errorf("line %d: %v, want errLineTooLong", i, err)
						}
						r.skipLine()
						continue
					}
					if l != lines[i] || (err != nil && err != io.EOF) {
						t.Errorf("line %d: %q, %v; want %q", i, l, err, lines[i])
					}
				}
				if err := r.skipTo(0); len(pick) > 0 && offs[pick[0]] > 0 && err == nil {
					t.Error("skipTo went back")
				}
			}
			r = newLineReader(tc.wrap(strings.NewReader(in)), 200)
			if err := r.skipTo(int64(len(in)) + 10); err == nil && tc.name == "reader" {
				t.Error("skipTo past the end: no error")
			}
		})
	}
}
