package pipeline

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is an io.Writer the ticker and the test share.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestProgress runs the pipeline with a short interval: the lines come,
// in the stated form, their counts never decrease nor exceed the run's,
// the counts at the end are the records read, and none comes after Run
// has returned.
func TestProgress(t *testing.T) {
	every, out := progressEvery, progressOut
	t.Cleanup(func() { progressEvery, progressOut = every, out })
	var buf lockedBuffer
	progressEvery, progressOut = 5*time.Millisecond, &buf

	c := run(t, Options{Input: filepath.Join("..", "testdata", "chats", "*.jsonl"), Output: filepath.Join(t.TempDir(), "out"), CapWords: 60})
	if got := progressRecords.Load(); got != c.RecordsRead {
		t.Errorf("records counted %d, read %d", got, c.RecordsRead)
	}
	if progressWords.Load() < c.WordsReleased {
		t.Errorf("words charged %d < words released %d", progressWords.Load(), c.WordsReleased)
	}
	text := buf.String()
	time.Sleep(5 * progressEvery)
	if buf.String() != text {
		t.Errorf("a progress line after Run returned")
	}
	line := regexp.MustCompile(`^wordveil-beam: progress: (\d+) records read, (\d+) words charged so far \(\d+(\.\d+)?[a-z]+\)$`)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		t.Fatal("no progress line")
	}
	var lastRecords, lastWords int64
	for _, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %q is not a progress line", l)
		}
		r, _ := strconv.ParseInt(m[1], 10, 64) // \d+: parses
		w, _ := strconv.ParseInt(m[2], 10, 64)
		if r < lastRecords || w < lastWords || r > c.RecordsRead {
			t.Errorf("line %q after %d records, %d words (run read %d)", l, lastRecords, lastWords, c.RecordsRead)
		}
		lastRecords, lastWords = r, w
	}
}

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		records, words int64
		elapsed        time.Duration
		want           string
	}{
		{0, 0, 0, "wordveil-beam: progress: 0 records read, 0 words charged so far (0s)"},
		{1719, 24013, 65*time.Second + 400*time.Millisecond, "wordveil-beam: progress: 1719 records read, 24013 words charged so far (1m5s)"},
	} {
		if got := progressLine(tc.records, tc.words, tc.elapsed); got != tc.want {
			t.Errorf("progressLine(%d, %d, %v) = %q, want %q", tc.records, tc.words, tc.elapsed, got, tc.want)
		}
	}
}
