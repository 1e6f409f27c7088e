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

// The directory holds one lock file shared by all memos in it, and one
// file per Identity named after its random file id: the name says nothing
// about the mechanism, ε or asset (a name derived from the identity could
// be tested against the few known mechanisms and assets; one keyed by the
// secret could not be found under a wrong secret, which would then start a
// second memo instead of failing with ErrWrongSecret).
const (
	lockName   = "memo.lock"
	filePrefix = "memo-"
	fileSuffix = ".wvm"
	readChunk  = 1024 // records read per ReadAt: bounds the read buffer
)

func fileName(fileID [fileIDLen]byte) string {
	return fmt.Sprintf("%s%x%s", filePrefix, fileID[:], fileSuffix)
}

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
	// Lower-case hex digits only: the form fileName writes.
	return strings.IndexFunc(h, func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') }) < 0
}

// find looks, under the directory lock, for the file of identity id among
// the memo files in dir. Every memo file's header is checked: one that was
// not made with secret is ErrWrongSecret (the directory belongs to one
// secret; starting a second memo beside it would fail open). It returns
// "" when there is none. Memory stays bounded however large the
// directory: entries are listed in chunks and only headers are read.
func find(dir string, id, secret []byte) (name string, h header, k *keys, err error) {
	d, err := os.Open(dir)
	if err != nil {
		return "", h, nil, fmt.Errorf("memo: %w", err)
	}
	defer d.Close()
	for {
		ents, rerr := d.ReadDir(128)
		for _, e := range ents {
			if !isMemoName(e.Name()) {
				continue
			}
			eh, ek, idOK, err := checkFile(filepath.Join(dir, e.Name()), e.Name(), id, secret)
			if err != nil {
				return "", h, nil, err
			}
			if !idOK {
				continue
			}
			if name != "" {
				return "", h, nil, fmt.Errorf("%w: two files for one identity: %s and %s", ErrCorrupt, name, e.Name())
			}
			name, h, k = e.Name(), eh, ek
		}
		if rerr == io.EOF {
			return name, h, k, nil
		}
		if rerr != nil {
			return "", h, nil, fmt.Errorf("memo: %w", rerr)
		}
	}
}

// checkFile reads and verifies the header of the memo file at path.
func checkFile(path, name string, id, secret []byte) (h header, k *keys, idOK bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return h, nil, false, fmt.Errorf("memo: %w", err)
	}
	defer f.Close()
	b := make([]byte, headerLen)
	n, err := io.ReadFull(f, b)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return h, nil, false, fmt.Errorf("memo: %w", err)
	}
	if h, err = parseHeader(b[:n]); err != nil {
		return h, nil, false, fmt.Errorf("%w (%s)", err, name)
	}
	if fileName(h.fileID) != name {
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

// create makes a new memo file for id, atomically (temporary file, fsync,
// rename, directory fsync), so a crash never leaves a short header under
// the final name.
func create(dir string, id, secret []byte) (name string, h header, k *keys, err error) {
	h = newHeader()
	if k, err = deriveKeys(secret, h.salt[:]); err != nil {
		return "", h, nil, fmt.Errorf("memo: %w", err)
	}
	h.seal(k, id)
	name = fileName(h.fileID)
	if err := safefile.WriteFile(filepath.Join(dir, name), h.marshal(), 0o600); err != nil {
		return "", h, nil, fmt.Errorf("memo: %w", err)
	}
	return name, h, k, nil
}

// refresh reads what other Memos appended since the last read. Called with
// m.mu and the file lock held.
func (m *Memo) refresh() error {
	if m.f == nil {
		return nil // in memory only
	}
	st, err := os.Stat(m.path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: the file was deleted under an open memo", ErrCorrupt)
	}
	if err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	if !os.SameFile(st, m.fi) {
		return m.reopen()
	}
	return m.readNew(st.Size())
}

// reopen follows a file replaced under an open Memo (another inode at the
// path). Only a byte-identical header (same file id, salt and MACs) whose
// records still hold every response this Memo has seen is accepted;
// anything else means the memo was replaced or rolled back.
func (m *Memo) reopen() error {
	f, err := os.OpenFile(m.path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	keep := false
	defer func() {
		if !keep {
			f.Close()
		}
	}()
	b := make([]byte, headerLen)
	if _, err := io.ReadFull(f, b); err != nil || !bytes.Equal(b, m.hdr.marshal()) {
		return fmt.Errorf("%w: the file was replaced under an open memo", ErrCorrupt)
	}
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	// Read the new file into a scratch Memo, so that a failure leaves m
	// on the old file, untouched.
	n := &Memo{k: m.k, hdr: m.hdr, f: f, fi: fi, off: headerLen, resp: make(map[[tagLen]byte]int32, len(m.resp))}
	if err := n.readNew(fi.Size()); err != nil {
		return err
	}
	for t, r := range m.resp {
		if got, ok := n.resp[t]; !ok || got != r {
			return fmt.Errorf("%w: the file was replaced by an older copy", ErrCorrupt)
		}
	}
	keep = true
	m.f.Close()
	m.f, m.fi, m.off, m.resp = f, fi, n.off, n.resp
	return nil
}

// readNew authenticates and loads the records between m.off and size.
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
	buf := make([]byte, min(n, readChunk)*recordLen)
	for n > 0 {
		c := min(n, readChunk)
		b := buf[:c*recordLen]
		if _, err := m.f.ReadAt(b, m.off); err != nil {
			return fmt.Errorf("memo: %w", err)
		}
		for ; len(b) > 0; b = b[recordLen:] {
			tag, r, err := m.k.openRecord(b[:recordLen], m.hdr.fileID)
			if err != nil {
				return err
			}
			if _, dup := m.resp[tag]; dup {
				return fmt.Errorf("%w: two responses for one word", ErrCorrupt)
			}
			m.resp[tag] = r
		}
		m.off += c * recordLen
		n -= c
	}
	return nil
}

// appendRecords writes fresh records at the end and fsyncs them. On error
// m.off is not advanced: whatever reached the file is read back (or, if
// torn, dropped) by the next refresh.
func (m *Memo) appendRecords(b []byte) error {
	if _, err := m.f.WriteAt(b, m.off); err != nil {
		return fmt.Errorf("memo: append: %w", err)
	}
	if err := m.f.Sync(); err != nil {
		return fmt.Errorf("memo: append: %w", err)
	}
	m.off += int64(len(b))
	return nil
}
