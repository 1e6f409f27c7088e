package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/internal/atomicfile"
)

// ErrMemoCorrupt is returned for a memo file that fails its checks. A
// damaged memo is an error, not a fresh start: starting afresh would draw
// and release new responses for words already answered.
var ErrMemoCorrupt = errors.New("core: memo file is corrupt")

// Memo keeps one permanent response per word, as RAPPOR's permanent
// randomized response does. Without it, a word typed every day is
// privatized afresh every day, and the responses, taken together, average
// the noise away: the loss composes with every use. With it, a word's
// first response is reused forever, so the loss for that word is paid once.
// Off by default: it makes repeated words look alike in the output (the
// same input word always gives the same output word), which is itself
// information, and the memo file (word id → response) must be kept in
// app-private storage. Responses are bound to the mechanism, its ε and the
// asset (MemoKey), so changing any of them starts a new memo.
type Memo struct {
	mu   sync.Mutex
	path string // "" keeps the memo in memory only
	key  string
	resp map[int32]int32
}

type memoFile struct {
	Version   int        `json:"version"`
	Key       string     `json:"key"`
	Responses [][2]int32 `json:"responses"` // [word, response], sorted by word
}

// MemoKey identifies what a memo's responses are valid for.
func MemoKey(m Mechanism, a *wva.Asset) string {
	return fmt.Sprintf("%T|eps=%v|metric=%s|asset=%s|words=%d", m, m.Epsilon(), m.Metric(), a.Header.Name, a.Len())
}

// OpenMemo opens (or starts) the memo for key in dir; dir "" keeps it in
// memory only.
func OpenMemo(dir, key string) (*Memo, error) {
	m := &Memo{key: key, resp: map[int32]int32{}}
	if dir == "" {
		return m, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("core: memo: %w", err)
	}
	m.path = filepath.Join(dir, fmt.Sprintf("wordveil-memo-%08x.json", crc32.Checksum([]byte(key), castagnoliTable)))
	b, err := os.ReadFile(m.path)
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("core: memo: %w", err)
	}
	body, err := atomicfile.ParseChecked(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMemoCorrupt, m.path, err)
	}
	var f memoFile
	if err := json.Unmarshal(body, &f); err != nil || f.Version != 1 || f.Key != key {
		return nil, fmt.Errorf("%w: %s: bad content or key", ErrMemoCorrupt, m.path)
	}
	for _, r := range f.Responses {
		m.resp[r[0]] = r[1]
	}
	return m, nil
}

var castagnoliTable = crc32.MakeTable(crc32.Castagnoli)

// Len returns the number of words answered so far.
func (m *Memo) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.resp)
}

func (m *Memo) get(w int) (int, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	y, ok := m.resp[int32(w)]
	return int(y), ok
}

// commit records fresh responses (keeping any recorded meanwhile) and
// persists the memo atomically.
func (m *Memo) commit(fresh map[int32]int32) error {
	if len(fresh) == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for w, y := range fresh {
		if _, ok := m.resp[w]; !ok {
			m.resp[w] = y
		}
	}
	if m.path == "" {
		return nil
	}
	f := memoFile{Version: 1, Key: m.key, Responses: make([][2]int32, 0, len(m.resp))}
	for w, y := range m.resp {
		f.Responses = append(f.Responses, [2]int32{w, y})
	}
	sortPairs(f.Responses)
	body, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("core: memo: %w", err)
	}
	if err := atomicfile.WriteChecked(m.path, body, 0o600); err != nil {
		return fmt.Errorf("core: memo: %w", err)
	}
	return nil
}

// sortPairs orders by word so the file is deterministic.
func sortPairs(p [][2]int32) {
	slices.SortFunc(p, func(a, b [2]int32) int { return int(a[0]) - int(b[0]) })
}
