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
	"strings"

	"github.com/wordveil/wordveil/internal/safefile"
)

func (l *Ledger) path() string { return filepath.Join(l.dir, FileName) }

// lock takes the in-process mutex and the cross-process file lock, and
// returns the function that releases both.
func (l *Ledger) lock() (unlock func(), err error) {
	l.mu.Lock()
	release, err := safefile.Lock(filepath.Join(l.dir, lockName))
	if err != nil {
		l.mu.Unlock()
		return nil, fmt.Errorf("ledger: lock %s: %w", l.dir, err)
	}
	return func() { release(); l.mu.Unlock() }, nil
}

// locked runs f on the ledger file with the cache up to date, holding the
// in-process mutex and the cross-process lock.
func (l *Ledger) locked(f func(*os.File) error) error {
	if l == nil || l.dir == "" || l.now == nil {
		return fmt.Errorf("%w: ledger not opened with Open", ErrInvalid)
	}
	unlock, err := l.lock()
	if err != nil {
		return err
	}
	defer unlock()
	file, err := os.OpenFile(l.path(), os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		// Never recreate it here: that would be a fresh budget.
		return fmt.Errorf("%w: %s was removed while the ledger was open", ErrCorrupt, l.path())
	}
	if err != nil {
		return fmt.Errorf("ledger: open %s: %w", l.path(), err)
	}
	defer file.Close()
	if err := l.refresh(file); err != nil {
		return err
	}
	return f(file)
}

// open creates the file if needed (migrating version 1), reads it, and
// records this handle's period as the retention window if it is wider.
func (l *Ledger) open() error {
	unlock, err := l.lock()
	if err != nil {
		return err
	}
	defer unlock()
	// Temporary files left by a crash during a compaction or a migration:
	// under the lock no one else is writing one.
	if ents, err := os.ReadDir(l.dir); err == nil {
		for _, e := range ents {
			if n := e.Name(); strings.HasPrefix(n, "."+FileName+".") || strings.HasPrefix(n, "."+legacyName+".") {
				os.Remove(filepath.Join(l.dir, n))
			}
		}
	}
	if err := l.create(); err != nil {
		return err
	}
	file, err := os.OpenFile(l.path(), os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("ledger: open %s: %w", l.path(), err)
	}
	defer file.Close()
	if err := l.refresh(file); err != nil {
		return err
	}
	if p := int64(l.caps.Period); p > l.st.retention {
		if err := l.append(file, retentionSlot(l.st.nonce, l.off, p)); err != nil {
			return err
		}
		l.st.retention = p
		l.st.records++
	}
	return nil
}

// create makes sure the directory holds a ledger file and, beside it, the
// version 1 file's tombstone: it carries a version 1 ledger over, starts a
// fresh one where there was none, and fails closed where the tombstone says
// a ledger was deleted.
func (l *Ledger) create() error {
	legacy := filepath.Join(l.dir, legacyName)
	_, err := os.Stat(l.path())
	if err == nil {
		// The log exists; a crash may have come before the tombstone.
		if b, err := os.ReadFile(legacy); err != nil || string(b) != tombstone {
			return writeTombstone(legacy)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ledger: open %s: %w", l.path(), err)
	}
	st, isTombstone, err := readLegacy(legacy, int64(l.caps.Period))
	switch {
	case err != nil:
		return err
	case isTombstone:
		return fmt.Errorf("%w: %s is missing from a directory that held a ledger (delete the whole directory to start afresh)", ErrCorrupt, FileName)
	case st == nil:
		st = newState(int64(l.caps.Period))
	}
	st.nonce = newNonce()
	st.retention = int64(l.caps.Period)
	st.win.advance(max(st.clock, l.now().UnixNano()), st.retention)
	if err := safefile.WriteFile(l.path(), encodeSnapshot(st, st.nonce), 0o600); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return writeTombstone(legacy)
}

func writeTombstone(path string) error {
	if err := safefile.WriteFile(path, []byte(tombstone), 0o600); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
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
	if l.st == nil || l.fi == nil || !os.SameFile(fi, l.fi) || size < l.off || !l.sameSnapshot(f) {
		return l.load(f, fi)
	}
	if size == l.off {
		return nil
	}
	r := bufio.NewReader(io.NewSectionReader(f, l.off, size-l.off))
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
	nonce, _, err := parseHeader(h[:])
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
	nonce, bodyLen, err := parseHeader(h[:])
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
	st, err := parseSnapshot(nonce, body[:bodyLen], binary.LittleEndian.Uint32(body[bodyLen:]), int64(l.caps.Period))
	if err != nil {
		return fmt.Errorf("%w (%s)", err, l.path())
	}
	off := headerSize + bodyLen + 4
	res, err := readRecords(st, r, off, size)
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
	return nil
}

// maybeCompact replaces the log by a snapshot of the live state once the
// log holds more than twice the live entries plus the slack, so the file
// stays proportional to the live state and the cost, O(live), is spread
// over at least as many appends. The snapshot is written to a temporary
// file, fsync'd and renamed over the log (internal/safefile): a crash
// leaves either the old log or the new snapshot, both complete. A failure
// only postpones compaction: the charge before it is already durable.
func (l *Ledger) maybeCompact() {
	st := l.st
	live := len(st.win.live()) + len(st.bindings)
	if st.records <= 2*live+l.slack || st.records < l.compactAt {
		return
	}
	nonce := newNonce()
	snap := encodeSnapshot(st, nonce)
	if err := safefile.WriteFile(l.path(), snap, 0o600); err != nil {
		l.compactAt = st.records + l.slack
		return
	}
	fi, err := os.Stat(l.path())
	if err != nil {
		l.st = nil
		return
	}
	st.nonce, st.records, l.compactAt = nonce, live, 0
	l.fi, l.off = fi, int64(len(snap))
}

func newNonce() uint64 {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return binary.LittleEndian.Uint64(b[:])
}
