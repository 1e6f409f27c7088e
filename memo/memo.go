package memo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/wordveil/wordveil/internal/safefile"
)

// Memo is one identity's permanent responses, in a directory or in memory.
// Safe for concurrent use; a nil or zero Memo returns ErrInvalid.
type Memo struct {
	mu     sync.Mutex
	id     Identity // immutable after Open
	path   string   // the memo file; "" in memory only
	lock   string   // the directory's lock file
	k      *keys    // nil in a zero Memo
	hdr    header
	f      *os.File    // open memo file; nil in memory only
	fi     os.FileInfo // f's identity, to notice a replaced file
	off    int64       // bytes of f read and authenticated
	resp   map[[tagLen]byte]int32
	err    error // sticky: once the file is found corrupt, always corrupt
	closed bool
}

// Open opens the memo for id in dir, creating dir (0700) and the memo file
// if needed. dir == "" keeps the memo in memory only, with random keys
// (secret may then be nil and is ignored). Otherwise secret, at least
// MinSecretLen bytes from the platform keystore, keys the file.
func Open(dir string, id Identity, secret []byte) (*Memo, error) {
	if err := id.validate(); err != nil {
		return nil, err
	}
	m := &Memo{resp: map[[tagLen]byte]int32{}, id: id}
	if dir == "" {
		k, err := memoryKeys()
		if err != nil {
			return nil, fmt.Errorf("memo: %w", err)
		}
		m.k = k
		return m, nil
	}
	if len(secret) < MinSecretLen {
		return nil, fmt.Errorf("%w: %d bytes, need at least %d", ErrSecret, len(secret), MinSecretLen)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("memo: %w", err)
	}
	m.lock = filepath.Join(dir, lockName)
	unlock, err := safefile.Lock(m.lock)
	if err != nil {
		return nil, fmt.Errorf("memo: lock: %w", err)
	}
	defer unlock()
	canon := id.canonical()
	name, h, k, err := find(dir, canon, secret)
	if err == nil && name == "" {
		name, h, k, err = create(dir, canon, secret)
	}
	if err != nil {
		return nil, err
	}
	m.path, m.hdr, m.k, m.off = filepath.Join(dir, name), h, k, headerLen
	if m.f, err = os.OpenFile(m.path, os.O_RDWR, 0); err != nil {
		return nil, fmt.Errorf("memo: %w", err)
	}
	if m.fi, err = m.f.Stat(); err == nil {
		err = m.refresh()
	}
	if err != nil {
		m.f.Close()
		return nil, err
	}
	return m, nil
}

// Resolve answers every word of words (ids ≥ 0; repeats allowed) with its
// permanent response, atomically across goroutines and processes. Under
// the Memo's mutex and the directory's exclusive file lock it reads the
// records others appended, looks each word up, calls draw once per
// distinct word with no response yet, then calls commit with every
// position's response and whether it is memoized (the number of false
// entries is the number of fresh draws, possibly 0): the caller builds
// what it will release and charges its privacy ledger there. If draw or commit returns an error, nothing is recorded
// and Resolve returns that error unchanged. Otherwise it appends the fresh
// records, fsyncs them, unlocks, and only then returns: the caller must
// release responses only after Resolve returns, so that a crash can never
// release a response that was not durably recorded. If the append fails
// after commit succeeded, the caller was charged for responses it will
// not release: an over-charge, never an under-charge.
//
// memoized[i] is true when words[i] was answered from the memo or repeats
// an earlier position of this call: it costs no new privacy. draw and
// commit run with the lock held and must not call back into the Memo.
func (m *Memo) Resolve(words []int32, draw func(word int32) (int32, error), commit func(responses []int32, memoized []bool) error) (responses []int32, memoized []bool, err error) {
	if m == nil || m.k == nil {
		return nil, nil, fmt.Errorf("%w: nil or zero Memo (use Open)", ErrInvalid)
	}
	if draw == nil || commit == nil {
		return nil, nil, fmt.Errorf("%w: nil draw or commit", ErrInvalid)
	}
	for i, w := range words {
		if w < 0 {
			return nil, nil, fmt.Errorf("%w: word id %d at position %d is negative", ErrInvalid, w, i)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	unlock, err := m.begin()
	if err != nil {
		return nil, nil, err
	}
	defer unlock()

	type record struct {
		tag  [tagLen]byte
		resp int32
	}
	var fresh []record
	responses, memoized = make([]int32, len(words)), make([]bool, len(words))
	seen := make(map[int32]int32) // this call's answers: one HMAC per distinct word
	for i, w := range words {
		if r, ok := seen[w]; ok {
			responses[i], memoized[i] = r, true
			continue
		}
		tag := m.k.tag(w)
		r, ok := m.resp[tag]
		if !ok {
			if len(m.resp)+len(fresh) >= MaxEntries {
				return nil, nil, fmt.Errorf("%w: %d words", ErrFull, MaxEntries)
			}
			if r, err = draw(w); err != nil {
				return nil, nil, err
			}
			if r < 0 {
				return nil, nil, fmt.Errorf("%w: draw returned %d for word %d", ErrInvalid, r, w)
			}
			fresh = append(fresh, record{tag, r})
		}
		seen[w] = r
		responses[i], memoized[i] = r, ok
	}
	if err := commit(responses, memoized); err != nil {
		return nil, nil, err
	}
	if len(fresh) > 0 && m.f != nil {
		b := make([]byte, 0, len(fresh)*recordLen)
		for _, f := range fresh {
			b = m.k.appendRecord(b, m.hdr.fileID, f.tag, f.resp)
		}
		if err := m.appendRecords(b); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range fresh {
		m.resp[f.tag] = f.resp
	}
	return responses, memoized, nil
}

// Len returns the number of words answered so far, after reading what
// other Memos appended.
func (m *Memo) Len() (int, error) {
	if m == nil || m.k == nil {
		return 0, fmt.Errorf("%w: nil or zero Memo (use Open)", ErrInvalid)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	unlock, err := m.begin()
	if err != nil {
		return 0, err
	}
	defer unlock()
	return len(m.resp), nil
}

// FileID returns the random identifier made with the memo file, in hex;
// "" for a memo in memory (or a nil or zero Memo). The caller records it
// in its ledger, so that a memo deleted or replaced under a live ledger
// fails closed.
func (m *Memo) FileID() string {
	if m == nil || m.path == "" {
		return ""
	}
	return fmt.Sprintf("%x", m.hdr.fileID[:]) // immutable after Open
}

// Close releases the file. Later calls return ErrInvalid.
func (m *Memo) Close() error {
	if m == nil || m.k == nil {
		return fmt.Errorf("%w: nil or zero Memo (use Open)", ErrInvalid)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	if m.f != nil {
		if err := m.f.Close(); err != nil {
			return fmt.Errorf("memo: %w", err)
		}
	}
	return nil
}

// begin takes the file lock and refreshes; called with m.mu held. A
// corrupt file stays corrupt for this Memo (fail closed).
func (m *Memo) begin() (unlock func(), err error) {
	switch {
	case m.closed:
		return nil, fmt.Errorf("%w: memo is closed", ErrInvalid)
	case m.err != nil:
		return nil, m.err
	case m.f == nil:
		return func() {}, nil
	}
	if unlock, err = safefile.Lock(m.lock); err != nil {
		return nil, fmt.Errorf("memo: lock: %w", err)
	}
	if err = m.refresh(); err != nil {
		unlock()
		if errors.Is(err, ErrCorrupt) {
			m.err = err
		}
		return nil, err
	}
	return unlock, nil
}

// Identity returns what the memo's responses are valid for (the zero
// Identity for a nil or zero Memo).
func (m *Memo) Identity() Identity {
	if m == nil {
		return Identity{}
	}
	return m.id
}
