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

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/safefile"
)

// Opening a memo: find the identity's file by its keyed name, check every
// other memo file's header against the secret, carry a version 1 file of
// the identity over to version 2, take the anchor's state, open (or
// create) the file locked, and read it from the start against that
// state. The record store (store.go) reads and appends from then on.
//
// The directory holds one file per Identity. A file's name is keyed by the
// secret and the identity (fileName): it says nothing about the mechanism,
// ε or asset without the secret, and every process finds the same name, so
// creating it is a single exclusive link (two processes never start two
// memos for one identity) and a file at that name that is not this
// identity's is damage, not another memo. Processes exclude each other by
// an flock on the memo file itself: there is no lock file a cleaner could
// delete.
const (
	filePrefix = "memo-"
	fileSuffix = ".wvm"
	maxRetries = 100 // reopen attempts when the name keeps changing under the lock
)

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
// A version 1 file of id is migrated to version 2 (migrate).
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
		m.want, m.anchored = &a, a.count
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

// fileName is the name of identity canon's file under secret: keyed, so
// that without the secret it says nothing about the mechanism, ε or asset
// (a name derived from the identity alone could be tested against the few
// known mechanisms and assets), and fixed, so that every process finds the
// same file and a damaged identity MAC at that name is damage, never a
// second memo. A wrong secret finds another name, but Open checks every
// file's header against the secret first and fails with ErrWrongSecret.
func fileName(secret, canon []byte) (string, error) {
	id, err := keyedID(secret, "file name", canon)
	return fmt.Sprintf("%s%x%s", filePrefix, id, fileSuffix), err
}

// bindingName is the memo's name in a privacy ledger (BindingName).
func bindingName(secret, canon []byte) (string, error) {
	id, err := keyedID(secret, "ledger binding", canon)
	return fmt.Sprintf("memo %x", id), err
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
	// Lower-case hex digits only: the form the names are written in.
	return strings.IndexFunc(h, func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') }) < 0
}

// scan checks the header of every memo file in dir other than own: one
// that was not made with secret is ErrWrongSecret (the directory belongs
// to one secret; starting a second memo beside it would fail open), and a
// version 2 file of identity id under another name is ErrCorrupt (a
// renamed or copied memo). It returns the version 1 file of id, if any
// (migrate). Memory stays bounded however large the directory: entries
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

// Version 1 memo files were named after their random file id, sealed each
// record with associated data fileID ‖ tag (no index), and were locked by
// a shared lock file, memo.lock. Open carries such a file over to version
// 2: same file id, salt and responses (so a ledger bound to the file id
// still matches, and no word is answered afresh), records re-sealed with
// their index, under the new keyed name; then the old file is removed.

const legacyLock = "memo.lock"

func fileNameV1(fileID [fileIDLen]byte) string {
	return fmt.Sprintf("%s%x%s", filePrefix, fileID[:], fileSuffix)
}

// migrate carries the version 1 file old (header h, keys k) of identity
// canon over to newPath.
func migrate(dir, old string, h header, k *keys, canon []byte, newPath string) error {
	// Old builds still running exclude each other (and this) with the
	// directory's lock file.
	unlock, err := safefile.Lock(filepath.Join(dir, legacyLock))
	if err != nil {
		return fmt.Errorf("memo: lock: %w", err)
	}
	defer unlock()
	oldPath := filepath.Join(dir, old)
	f, err := os.Open(oldPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // another process migrated it meanwhile
	}
	if err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	if st.Size() > headerLen+(MaxEntries+1)*recordLen {
		return fmt.Errorf("%w: more than %d entries (%s)", ErrCorrupt, MaxEntries, old)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	if len(data) < headerLen || !bytes.Equal(data[:headerLen], h.marshal()) {
		return fmt.Errorf("%w: %s changed while migrated", ErrCorrupt, old)
	}
	// A torn last record (a crash mid-append) was never released: dropped,
	// as version 1 did.
	body := data[headerLen : len(data)-(len(data)-headerLen)%recordLen]
	h2 := h
	h2.v1 = false
	h2.seal(k, canon)
	out := h2.marshal()
	seen := map[[tagLen]byte]bool{}
	for i := 0; len(body) > 0; i, body = i+1, body[recordLen:] {
		tag := [tagLen]byte(body[:tagLen])
		var ad [fileIDLen + tagLen]byte
		copy(ad[:], h.fileID[:])
		copy(ad[fileIDLen:], tag[:])
		_, r, err := k.openWith(body[:recordLen], ad[:])
		if err != nil {
			return fmt.Errorf("%w (%s)", err, old)
		}
		if seen[tag] {
			return fmt.Errorf("%w: two responses for one word (%s)", ErrCorrupt, old)
		}
		seen[tag] = true
		out = k.appendRecord(out, h.fileID, uint64(i), tag, r)
	}
	created, err := safefile.CreateExclusive(newPath, out, 0o600)
	if err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	if !created {
		// A migration cut short between the link and the removal: finish
		// it only if the new file is exactly what it made (same file id,
		// same number of records, none added since).
		nf, err := os.Stat(newPath)
		b := make([]byte, headerLen)
		if err == nil {
			err = readAt(newPath, b)
		}
		if err != nil || nf.Size() != int64(len(out)) || !bytes.Equal(b[magicLen:magicLen+fileIDLen], h.fileID[:]) {
			return fmt.Errorf("%w: both a version 1 file (%s) and a version 2 file hold this identity", ErrCorrupt, old)
		}
	}
	if err := os.Remove(oldPath); err != nil {
		return fmt.Errorf("memo: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

func readAt(path string, b []byte) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.ReadAt(b, 0)
	return err
}

// loadAnchor returns the anchor's state for m's file, if there is one.
func (m *Memo) loadAnchor() (a anchorState, ok bool, err error) {
	if m.anchor == nil {
		return a, false, nil
	}
	b, err := m.anchor.Load(m.name)
	if err != nil {
		return a, false, fmt.Errorf("memo: anchor: %w", err)
	}
	if len(b) == 0 { // nothing stored (a host may return empty for none)
		return a, false, nil
	}
	if anchor.IsRetired(b) {
		return a, false, fmt.Errorf("%w: this memo was reset (its files deleted on purpose): a copy restored since is refused, and a new memo needs a new secret", ErrCorrupt)
	}
	a, err = parseAnchor(b)
	return a, err == nil, err
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
