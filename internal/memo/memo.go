package memo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	resp    map[[tagLen]byte]int32
	err     error // sticky: once the file is found corrupt, always corrupt
	closed  bool
}

// Options are optional settings of OpenWith.
type Options struct {
	// Anchor, if set, keeps each file's record count and chain head
	// (format.go) outside the directory. A file can be rolled back
	// (truncated at a record boundary, an older copy restored, deleted)
	// but the anchor cannot roll back with it, so Open and every Resolve
	// compare the file with it and fail closed (ErrCorrupt) on a file
	// that holds fewer records than the anchor says, or whose records up
	// to the anchor's count are not the ones the anchor saw (the package
	// doc says what is not detected without one). A file's state is kept
	// under "memo-" and 32 hex digits keyed by the secret (it does not say
	// which mechanism, ε or asset the memo serves) and is 45 opaque bytes
	// (a MAC value and a count). Calls are made with the memo file
	// locked, one at a time per file.
	Anchor anchor.Anchor
}

// Open is OpenWith without options (no anchor).
func Open(dir string, id Identity, secret []byte) (*Memo, error) {
	return OpenWith(dir, id, secret, Options{})
}

// OpenWith opens the memo for id in dir, creating dir (0700) and the memo
// file if needed. dir == "" keeps the memo in memory only, with random keys
// (secret may then be nil and is ignored, and so is opt). Otherwise secret,
// at least MinSecretLen bytes from the platform keystore, keys the file.
// A version 1 file of id is migrated to version 2 (legacy.go).
func OpenWith(dir string, id Identity, secret []byte, opt Options) (*Memo, error) {
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
	canon := id.canonical()
	name, err := fileName(secret, canon)
	if err != nil {
		return nil, fmt.Errorf("memo: %w", err)
	}
	binding, err := bindingName(secret, canon)
	if err != nil {
		return nil, fmt.Errorf("memo: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("memo: %w", err)
	}
	m.path, m.anchor = filepath.Join(dir, name), opt.Anchor
	m.name, m.binding = strings.TrimSuffix(name, fileSuffix), binding
	legacy, lh, lk, err := scan(dir, name, canon, secret)
	if err == nil && legacy != "" {
		err = migrate(dir, legacy, lh, lk, canon, m.path)
	}
	if err != nil {
		return nil, err
	}
	a, ok, err := m.loadAnchor()
	if err != nil {
		return nil, err
	}
	if ok {
		m.want = &a
	}
	f, unlock, err := m.openFile(canon, secret, m.want)
	if err != nil {
		return nil, err
	}
	m.f = f
	err = m.load(canon, secret)
	unlock() // before any Close: an unlock after it could hit a reused descriptor
	if err != nil {
		f.Close()
		return nil, err
	}
	return m, nil
}

// load reads and checks the locked file from the start, then records its
// state in the anchor if the anchor is behind (a crash between an append
// and the anchor's store, a first use of the anchor, or a migration).
func (m *Memo) load(canon, secret []byte) error {
	h, k, idOK, err := readHeader(m.f, filepath.Base(m.path), canon, secret)
	switch {
	case err != nil:
		return err
	case h.v1:
		return fmt.Errorf("%w: a version 1 header under a version 2 name", ErrCorrupt)
	case !idOK:
		// The name is this identity's: its MAC is damaged, or the file
		// was put here from elsewhere. Never a second memo.
		return fmt.Errorf("%w: the identity MAC of %s does not verify", ErrCorrupt, filepath.Base(m.path))
	}
	m.hdr, m.k, m.off, m.count = h, k, headerLen, 0
	m.head = k.chainStart(&h)
	if err := m.refresh(); err != nil {
		return err
	}
	if m.anchor != nil && (m.want == nil || m.count > m.want.count) {
		return m.storeAnchor()
	}
	return nil
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
	if len(fresh) > 0 {
		// Records first, then the anchor, then release: a crash between
		// the two leaves a file ahead of its anchor, which Open accepts.
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
