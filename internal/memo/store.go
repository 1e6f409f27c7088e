package memo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/wordveil/wordveil/internal/safefile"
)

// readChunk bounds the read buffer: records read per ReadAt.
const readChunk = 1024

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
	torn := extra % recordLen
	extra -= torn
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
	if torn != 0 {
		return m.dropTorn(size - torn)
	}
	return nil
}

// dropTorn cuts off the bytes after the last complete record, at end,
// under the file lock, once the records before them are read and checked
// (a file cut short of its anchor has failed closed by then, untouched).
//
// Those bytes were never released. Records are appended by one write
// under the file lock, and Resolve returns (so its caller releases) only
// after that write is fsynced and the anchor stored past it (Resolve,
// m.anchored): every released response lies within the anchor's count,
// which the complete records reach, so bytes after them are a write cut
// short by a crash whose Resolve never returned — or bytes someone
// appended, which are not records of this memo (a whole forged record
// fails authentication; a part of one is never read). Dropping them
// loses nothing. Without an anchor (opted out) the same holds for a
// crash, but nothing tells a crash from a file cut at a record boundary,
// which is accepted (docs/STATE_FILES.md).
func (m *Memo) dropTorn(end int64) error {
	if err := m.f.Truncate(end); err != nil {
		return fmt.Errorf("memo: drop torn record: %w", err)
	}
	if err := m.f.Sync(); err != nil {
		return fmt.Errorf("memo: drop torn record: %w", err)
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
