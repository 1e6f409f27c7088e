package memo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wordveil/wordveil/internal/safefile"
)

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
