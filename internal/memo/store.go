package memo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/internal/safefile"
)

// The directory holds one file per Identity. A file's name is keyed by the
// secret and the identity (keys.go, fileName): it says nothing about the mechanism,
// ε or asset without the secret, and every process finds the same name, so
// creating it is a single exclusive link (two processes never start two
// memos for one identity) and a file at that name that is not this
// identity's is damage, not another memo. Processes exclude each other by
// an flock on the memo file itself: there is no lock file a cleaner could
// delete.
const (
	filePrefix = "memo-"
	fileSuffix = ".wvm"
	readChunk  = 1024 // records read per ReadAt: bounds the read buffer
	maxRetries = 100  // reopen attempts when the name keeps changing under the lock
)

// isMemoName reports whether name has the shape of a memo file name.
func isMemoName(name string) bool {
	h, ok := strings.CutPrefix(name, filePrefix)
	if !ok {
		return false
	}
	h, ok = strings.CutSuffix(h, fileSuffix)
	if !ok || len(h) != 2*fileIDLen {
		return false
	}
	// Lower-case hex digits only: the form the names are written in.
	return strings.IndexFunc(h, func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') }) < 0
}

// scan checks the header of every memo file in dir other than own: one
// that was not made with secret is ErrWrongSecret (the directory belongs
// to one secret; starting a second memo beside it would fail open), and a
// version 2 file of identity id under another name is ErrCorrupt (a
// renamed or copied memo). It returns the version 1 file of id, if any
// (legacy.go). Memory stays bounded however large the directory: entries
// are listed in chunks and only headers are read.
func scan(dir, own string, id, secret []byte) (legacy string, lh header, lk *keys, err error) {
	d, err := os.Open(dir)
	if err != nil {
		return "", lh, nil, fmt.Errorf("memo: %w", err)
	}
	defer d.Close()
	for {
		ents, rerr := d.ReadDir(128)
		for _, e := range ents {
			if !isMemoName(e.Name()) || e.Name() == own {
				continue
			}
			h, k, idOK, err := checkFile(filepath.Join(dir, e.Name()), e.Name(), id, secret)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				continue // removed meanwhile (a migration finishing)
			case err != nil:
				return "", lh, nil, err
			case !idOK:
				continue
			case !h.v1:
				return "", lh, nil, fmt.Errorf("%w: a file for this identity under another name (%s)", ErrCorrupt, e.Name())
			case legacy != "":
				return "", lh, nil, fmt.Errorf("%w: two files for one identity: %s and %s", ErrCorrupt, legacy, e.Name())
			}
			legacy, lh, lk = e.Name(), h, k
		}
		if rerr == io.EOF {
			return legacy, lh, lk, nil
		}
		if rerr != nil {
			return "", lh, nil, fmt.Errorf("memo: %w", rerr)
		}
	}
}

// checkFile reads and verifies the header of the memo file at path.
func checkFile(path, name string, id, secret []byte) (h header, k *keys, idOK bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return h, nil, false, err
	}
	defer f.Close()
	return readHeader(f, name, id, secret)
}

func readHeader(f *os.File, name string, id, secret []byte) (h header, k *keys, idOK bool, err error) {
	b := make([]byte, headerLen)
	n, err := f.ReadAt(b, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return h, nil, false, fmt.Errorf("memo: %w", err)
	}
	if h, err = parseHeader(b[:n]); err != nil {
		return h, nil, false, fmt.Errorf("%w (%s)", err, name)
	}
	if h.v1 && fileNameV1(h.fileID) != name {
		return h, nil, false, fmt.Errorf("%w: %s holds file id %x", ErrCorrupt, name, h.fileID)
	}
	if k, err = deriveKeys(secret, h.salt[:]); err != nil {
		return h, nil, false, fmt.Errorf("memo: %w", err)
	}
	keyOK, idOK := h.verify(k, id)
	if !keyOK {
		return h, nil, false, fmt.Errorf("%w (%s)", ErrWrongSecret, name)
	}
	return h, k, idOK, nil
}

// openFile opens (creating if it does not exist) m's file, locked: the
// returned file is flocked and the path names it. Called with m.mu held
// (or before m is shared). A missing file the anchor knows of is not
// recreated: that would be a fresh memo for words already answered.
func (m *Memo) openFile(canon, secret []byte, a *anchorState) (f *os.File, unlock func(), err error) {
	for range maxRetries {
		f, err = os.OpenFile(m.path, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			if a != nil {
				return nil, nil, fmt.Errorf("%w: the memo file is missing, but the anchor says it held %d records (deleted, or the directory restored from a backup)", ErrCorrupt, a.count)
			}
			h := newHeader()
			k, err := deriveKeys(secret, h.salt[:])
			if err != nil {
				return nil, nil, fmt.Errorf("memo: %w", err)
			}
			h.seal(k, canon)
			if _, err := safefile.CreateExclusive(m.path, h.marshal(), 0o600); err != nil {
				return nil, nil, fmt.Errorf("memo: %w", err)
			}
			continue // open whichever file won the race
		}
		if err != nil {
			return nil, nil, fmt.Errorf("memo: %w", err)
		}
		if unlock, err = safefile.LockFile(f); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("memo: lock: %w", err)
		}
		if same, err := namesFile(m.path, f); same || err != nil {
			if err != nil {
				unlock()
				f.Close()
				return nil, nil, err
			}
			return f, unlock, nil
		}
		unlock() // the name was replaced between open and lock: again
		f.Close()
	}
	return nil, nil, fmt.Errorf("memo: %s keeps changing under the lock", m.path)
}

// namesFile reports whether path names the open file f.
func namesFile(path string, f *os.File) (bool, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("memo: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		return false, fmt.Errorf("memo: %w", err)
	}
	return os.SameFile(st, fi), nil
}

// lockFile locks m's open file and checks that its name still names it;
// called with m.mu held. A file deleted or replaced under an open Memo is
// followed only if it holds every record this Memo has seen (reopen).
func (m *Memo) lockFile() (unlock func(), err error) {
	if unlock, err = safefile.LockFile(m.f); err != nil {
		return nil, fmt.Errorf("memo: lock: %w", err)
	}
	same, err := namesFile(m.path, m.f)
	if err == nil && !same {
		err = m.reopen(&unlock)
	}
	if err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// reopen follows a file replaced under an open Memo (another inode at the
// path), swapping *unlock for the new file's. Only a byte-identical header
// (same file id, salt and MACs) whose chain at this Memo's record count is
// the one it last saw is accepted; anything else means the memo was
// deleted, replaced or rolled back.
func (m *Memo) reopen(unlock *func()) error {
	f, err := os.OpenFile(m.path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: the file was deleted under an open memo", ErrCorrupt)
	}
	if err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	u, err := safefile.LockFile(f)
	if err != nil {
		f.Close()
		return fmt.Errorf("memo: lock: %w", err)
	}
	b := make([]byte, headerLen)
	if _, err := f.ReadAt(b, 0); err != nil || !bytes.Equal(b, m.hdr.marshal()) {
		u()
		f.Close()
		return fmt.Errorf("%w: the file was replaced under an open memo", ErrCorrupt)
	}
	// Read the new file into a scratch Memo up to this one's count, so
	// that a failure leaves m on the old file, untouched.
	n := &Memo{k: m.k, hdr: m.hdr, f: f, off: headerLen, head: m.k.chainStart(&m.hdr),
		want: &anchorState{m.count, m.head}, resp: make(map[[tagLen]byte]int32, len(m.resp))}
	if fileSize(f) < m.off {
		err = fmt.Errorf("%w: the file was replaced by an older copy", ErrCorrupt)
	} else {
		err = n.readNew(m.off)
	}
	if err != nil {
		u()
		f.Close()
		return err
	}
	(*unlock)()
	m.f.Close()
	m.f, *unlock = f, u
	return nil
}

func fileSize(f *os.File) int64 {
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	return st.Size()
}

// refresh reads what other Memos appended since the last read. Called with
// m.mu and the file lock held.
func (m *Memo) refresh() error {
	st, err := m.f.Stat()
	if err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	return m.readNew(st.Size())
}

// readNew authenticates and loads the records between m.off and size,
// advancing the chain and checking it against m.want.
func (m *Memo) readNew(size int64) error {
	if size < m.off {
		return fmt.Errorf("%w: the file shrank from %d to %d bytes", ErrCorrupt, m.off, size)
	}
	extra := size - m.off
	if torn := extra % recordLen; torn != 0 {
		// Records are appended by one write under the file lock, and
		// Resolve returns (so its caller releases) only after that write
		// is fsynced. A tail shorter than a record is therefore a write cut
		// short by a crash whose Resolve never returned: nothing was
		// released for those bytes, and dropping them is safe.
		if err := m.f.Truncate(size - torn); err != nil {
			return fmt.Errorf("memo: drop torn record: %w", err)
		}
		if err := m.f.Sync(); err != nil {
			return fmt.Errorf("memo: drop torn record: %w", err)
		}
		extra -= torn
	}
	n := extra / recordLen
	if int64(len(m.resp))+n > MaxEntries {
		return fmt.Errorf("%w: more than %d entries", ErrCorrupt, MaxEntries)
	}
	if err := m.checkAt(); err != nil {
		return err
	}
	buf := make([]byte, min(n, readChunk)*recordLen)
	for n > 0 {
		c := min(n, readChunk)
		b := buf[:c*recordLen]
		if _, err := m.f.ReadAt(b, m.off); err != nil {
			return fmt.Errorf("memo: %w", err)
		}
		for ; len(b) > 0; b = b[recordLen:] {
			tag, r, err := m.k.openRecord(b[:recordLen], m.hdr.fileID, m.count)
			if err != nil {
				return err
			}
			if _, dup := m.resp[tag]; dup {
				return fmt.Errorf("%w: two responses for one word", ErrCorrupt)
			}
			m.resp[tag] = r
			m.head = m.k.chainNext(m.head, b[:recordLen])
			m.count++
			m.off += recordLen
			if err := m.checkAt(); err != nil {
				return err
			}
		}
		n -= c
	}
	if m.want != nil && m.count < m.want.count {
		return fmt.Errorf("%w: the file holds %d records, the anchor says %d (rolled back: whole records cut off or an older copy restored)", ErrCorrupt, m.count, m.want.count)
	}
	return nil
}

// appendRecords writes fresh records (sealed for indexes from m.count on)
// at the end, fsyncs them, and advances the chain. On error m.off is not
// advanced: whatever reached the file is read back (or, if torn, dropped)
// by the next refresh.
func (m *Memo) appendRecords(b []byte) error {
	if _, err := m.f.WriteAt(b, m.off); err != nil {
		return fmt.Errorf("memo: append: %w", err)
	}
	if err := m.f.Sync(); err != nil {
		return fmt.Errorf("memo: append: %w", err)
	}
	for ; len(b) > 0; b = b[recordLen:] {
		m.head = m.k.chainNext(m.head, b[:recordLen])
		m.count++
		m.off += recordLen
	}
	return nil
}
