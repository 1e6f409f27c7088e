package memo

import (
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/errwrap"
)

// Memo is one identity's permanent responses, in a directory or in memory.
// Safe for concurrent use; a nil or zero Memo returns ErrInvalid.
type Memo struct {
	mu      sync.Mutex
	id      Identity      // immutable after Open
	path    string        // the memo file; "" in memory only
	name    string        // the anchor's name for the file
	binding string        // BindingName; immutable after Open
	anchor  anchor.Anchor // nil: no rollback detection across Opens
	k       *keys         // nil in a zero Memo
	hdr     header
	f       *os.File // open memo file; nil in memory only
	off     int64    // bytes of f read and authenticated
	count   uint64   // records read or written: the next record's index
	head    [macLen]byte
	want    *anchorState // the anchor's state at Open, checked while reading
	// anchored is the record count last read from or stored in the
	// anchor: a Resolve stores the anchor before it returns whenever the
	// count is past it, so that every response a caller may release is
	// anchored (also one read from records another process appended and
	// did not anchor, having crashed or run without the anchor).
	anchored uint64
	resp     map[[tagLen]byte]int32
	err      error // sticky: once the file is found corrupt, always corrupt
	closed   bool
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
		return nil, nil, errwrap.Tag(ErrInvalid, "memo: nil or zero Memo (use Open)")
	}
	if draw == nil || commit == nil {
		return nil, nil, errwrap.Tag(ErrInvalid, "memo: nil draw or commit")
	}
	for i, w := range words {
		if w < 0 {
			return nil, nil, errwrap.Tag(ErrInvalid, "memo: word id %d at position %d is negative", w, i)
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
				return nil, nil, errwrap.Tag(ErrInvalid, "memo: draw returned %d for word %d", r, w)
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
		for i, f := range fresh {
			b = m.k.appendRecord(b, m.hdr.fileID, m.count+uint64(i), f.tag, f.resp)
		}
		if err := m.appendRecords(b); err != nil {
			return nil, nil, err
		}
	}
	for _, f := range fresh {
		m.resp[f.tag] = f.resp
	}
	if len(fresh) > 0 || m.count > m.anchored {
		// Records first, then the anchor, then release: a crash between
		// the two leaves a file ahead of its anchor, which Open accepts.
		// Bytes past the anchor's count were therefore never released,
		// which is what lets a torn tail be dropped (readNew).
		if err := m.storeAnchor(); err != nil {
			return nil, nil, err
		}
	}
	return responses, memoized, nil
}

// Len returns the number of words answered so far, after reading what
// other Memos appended.
func (m *Memo) Len() (int, error) {
	if m == nil || m.k == nil {
		return 0, errwrap.Tag(ErrInvalid, "memo: nil or zero Memo (use Open)")
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

// BindingName is the memo's name in a privacy ledger's bindings
// (ledger.Options.Bind, with FileID): keyed by the secret, so that the
// ledger file does not say which mechanism, ε or asset the memo serves;
// "" for a memo in memory (or a nil or zero Memo).
func (m *Memo) BindingName() string {
	if m == nil || m.path == "" {
		return ""
	}
	return m.binding
}

// Close releases the file. Later calls return ErrInvalid.
func (m *Memo) Close() error {
	if m == nil || m.k == nil {
		return errwrap.Tag(ErrInvalid, "memo: nil or zero Memo (use Open)")
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
		return nil, errwrap.Tag(ErrInvalid, "memo: closed")
	case m.err != nil:
		return nil, m.err
	case m.f == nil:
		return func() {}, nil
	}
	if unlock, err = m.lockFile(); err != nil {
		if errors.Is(err, ErrCorrupt) {
			m.err = err
		}
		return nil, err
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
