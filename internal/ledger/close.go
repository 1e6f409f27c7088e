package ledger

import "github.com/wordveil/wordveil/internal/errwrap"

// Close ends the use of the ledger: later calls return ErrInvalid. A
// Ledger holds no file or lock between calls (each call opens and locks
// the file, and releases both before it returns), so Close only marks it
// closed, after any call in progress. Closing twice is not an error.
func (l *Ledger) Close() error {
	if l == nil || l.dir == "" {
		return errwrap.Tag(ErrInvalid, "ledger: not opened with Open")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	return nil
}
