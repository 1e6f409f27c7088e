package ledger

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/safefile"
)

func (l *Ledger) path() string { return filepath.Join(l.dir, FileName) }

// maxRetries bounds the reopen attempts when compactions by other
// processes keep renaming a new file over the path between open and lock.
const maxRetries = 100

// lockFile opens the ledger file and takes an exclusive flock on it: the
// data file itself, so no cleaner can remove the lock while it is in use.
// A compaction renames a new file over the path; once locked, the path
// must still name the locked file, or it is opened again. A missing file
// is never recreated here: that would be a fresh budget.
func (l *Ledger) lockFile() (f *os.File, unlock func(), err error) {
	for range maxRetries {
		f, err = os.OpenFile(l.path(), os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%w: %s was removed while the ledger was open", ErrCorrupt, l.path())
		}
		if err != nil {
			return nil, nil, fmt.Errorf("ledger: open %s: %w", l.path(), err)
		}
		if unlock, err = safefile.LockFile(f); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("ledger: lock %s: %w", l.path(), err)
		}
		st, serr := os.Stat(l.path())
		fi, ferr := f.Stat()
		if serr == nil && ferr == nil && os.SameFile(st, fi) {
			return f, unlock, nil
		}
		unlock()
		f.Close()
		if ferr != nil || (serr != nil && !errors.Is(serr, fs.ErrNotExist)) {
			return nil, nil, fmt.Errorf("ledger: stat %s: %w", l.path(), errors.Join(serr, ferr))
		}
	}
	return nil, nil, fmt.Errorf("ledger: %s keeps changing under the lock", l.path())
}

// locked runs f on the ledger file with the cache up to date, holding the
// in-process mutex and the file's lock.
func (l *Ledger) locked(f func(*os.File) error) error {
	if l == nil || l.dir == "" || l.now == nil {
		return errwrap.Tag(ErrInvalid, "ledger: not opened with Open")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errwrap.Tag(ErrInvalid, "ledger: closed")
	}
	file, unlock, err := l.lockFile()
	if err != nil {
		return err
	}
	defer file.Close()
	defer unlock()
	if err := l.refresh(file); err != nil {
		return err
	}
	return f(file)
}

// refresh brings the cache up to date with the file: it reads only the
// records appended since the last read, or the whole file if it is another
// file (compacted by another process: a new identity or snapshot nonce) or
// the cache was dropped. A torn append at the end is cut off.
func (l *Ledger) refresh(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("ledger: stat %s: %w", l.path(), err)
	}
	size := fi.Size()
	if l.st != nil {
		// Whatever the file is now, it must continue what was last seen.
		p := l.st.pos()
		l.seen = &p
	}
	if l.st == nil || l.fi == nil || !os.SameFile(fi, l.fi) || size < l.off || !l.sameSnapshot(f) {
		return l.load(f, fi)
	}
	if size == l.off {
		return nil
	}
	r := bufio.NewReader(io.NewSectionReader(f, l.off, size-l.off))
	l.st.want = nil // it continues the state last seen by construction
	res, err := readRecords(l.st, r, l.off, size)
	if err != nil {
		l.st = nil // partly applied: read the whole file next time
		return err
	}
	if res.widened {
		// Charges this handle let go may be inside the wider window.
		return l.load(f, fi)
	}
	l.off = res.end
	if res.torn {
		return l.cut(f, res.end)
	}
	return nil
}

// sameSnapshot reports whether f still starts with the snapshot the cache
// continues: an inode number can be reused by a later compaction.
func (l *Ledger) sameSnapshot(f *os.File) bool {
	var h [headerSize]byte
	if _, err := f.ReadAt(h[:], 0); err != nil {
		return false
	}
	nonce, _, _, err := parseHeader(h[:])
	return err == nil && nonce == l.st.nonce
}

// load reads the whole file into a fresh cache, streaming it: memory is the
// snapshot's body plus the live state, never the whole log.
func (l *Ledger) load(f *os.File, fi os.FileInfo) error {
	l.st = nil
	l.loads++
	size := fi.Size()
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, size), 64<<10)
	var h [headerSize]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return fmt.Errorf("%w: %s: no header", ErrCorrupt, l.path())
	}
	nonce, bodyLen, ver, err := parseHeader(h[:])
	if err != nil {
		return fmt.Errorf("%w (%s)", err, l.path())
	}
	if bodyLen > size-headerSize-4 {
		return fmt.Errorf("%w: %s: snapshot truncated", ErrCorrupt, l.path())
	}
	body := make([]byte, bodyLen+4)
	if _, err := io.ReadFull(r, body); err != nil {
		return readErr(err)
	}
	st, err := parseSnapshot(ver, nonce, body[:bodyLen], binary.LittleEndian.Uint32(body[bodyLen:]), int64(l.caps.Period))
	if err != nil {
		return fmt.Errorf("%w (%s)", err, l.path())
	}
	if l.seen == nil && !st.v2 {
		// The first read: the anchor is found by the file's id (anchor.go).
		if l.seen, err = l.loadAnchor(st.id); err != nil {
			return err
		}
	}
	st.want = l.seen
	if st.v2 && st.want != nil {
		// A version 2 file where a version 3 one was seen: an old copy.
		return fmt.Errorf("%w: %s: a version 2 file where a version 3 ledger was seen", ErrCorrupt, l.path())
	}
	if err := st.checkWant(); err != nil {
		return fmt.Errorf("%w (%s)", err, l.path())
	}
	off := headerSize + bodyLen + 4
	res, err := readRecords(st, r, off, size)
	if err == nil {
		err = st.checkReached()
	}
	if err != nil {
		return fmt.Errorf("%w (%s)", err, l.path())
	}
	l.st, l.fi, l.off = st, fi, res.end
	if res.torn {
		return l.cut(f, res.end)
	}
	return nil
}

// cut removes a torn append from the end of the file, so the next append
// does not leave it in the middle.
func (l *Ledger) cut(f *os.File, end int64) error {
	if err := f.Truncate(end); err != nil {
		l.st = nil
		return fmt.Errorf("ledger: truncate %s: %w", l.path(), err)
	}
	if err := f.Sync(); err != nil {
		l.st = nil
		return fmt.Errorf("ledger: sync %s: %w", l.path(), err)
	}
	return nil
}

// append writes b at the end of the file and makes it durable. On failure
// it tries to take the bytes back; either way the cache is dropped, so the
// next call reads the file as it really is (a record that did reach the
// file then counts, which errs on the side of spent).
func (l *Ledger) append(f *os.File, b []byte) error {
	if _, err := f.WriteAt(b, l.off); err != nil {
		f.Truncate(l.off)
		l.st = nil
		return fmt.Errorf("ledger: append to %s: %w", l.path(), err)
	}
	if err := f.Sync(); err != nil {
		l.st = nil
		return fmt.Errorf("ledger: sync %s: %w", l.path(), err)
	}
	l.off += int64(len(b))
	l.st.seq++
	l.st.head = chainNext(l.st.head, b)
	return l.storeAnchor()
}

// maybeCompact replaces the log by a snapshot of the live state once the
// log holds more than twice the live entries plus the slack, so the file
// stays proportional to the live state and the cost, O(live), is spread
// over at least as many appends. A failure only postpones compaction: the
// charge before it is already durable.
func (l *Ledger) maybeCompact() {
	st := l.st
	live := len(st.win.live()) + len(st.bindings)
	if st.records <= 2*live+l.slack || st.records < l.compactAt {
		return
	}
	if err := l.compact(); err != nil {
		l.compactAt = st.records + l.slack
	}
}

// compact writes a snapshot of the live state, with the chain's count and
// head, to a temporary file, fsyncs it and renames it over the log
// (internal/safefile): a crash leaves either the old log or the new
// snapshot, both complete. It is called with the log's flock held; other
// processes waiting on the old file notice the rename (lockFile).
func (l *Ledger) compact() error {
	st := l.st
	nonce := newNonce()
	snap := encodeSnapshot(st, nonce)
	if err := safefile.WriteFile(l.path(), snap, 0o600); err != nil {
		return err
	}
	fi, err := os.Stat(l.path())
	if err != nil {
		l.st = nil
		return err
	}
	st.nonce, st.records, st.v2, l.compactAt = nonce, len(st.win.live())+len(st.bindings), false, 0
	l.fi, l.off = fi, int64(len(snap))
	return nil
}

func newNonce() uint64 {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return binary.LittleEndian.Uint64(b[:])
}
