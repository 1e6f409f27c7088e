package mobile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// keychain is a StateAnchor as a host would write it over its key store.
type keychain struct {
	mu   sync.Mutex
	m    map[string][]byte
	fail bool
}

func (k *keychain) Load(name string) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.fail {
		return nil, errors.New("keychain locked")
	}
	return append([]byte(nil), k.m[name]...), nil
}

func (k *keychain) Store(name string, b []byte) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.fail {
		return errors.New("keychain locked")
	}
	if k.m == nil {
		k.m = map[string][]byte{}
	}
	k.m[name] = append([]byte(nil), b...)
	return nil
}

// TestAnchorRestoredBackupFailsClosed: with an Anchor, an app's memo and
// ledger directories restored from an older backup make OpenPrivatizer
// fail with WV_CORRUPT_STATE; the same restore without the anchor opens
// (the negative control, and what docs/STATE_FILES.md says is then not
// detected). An anchor that fails is an error too, and an anchor without
// a directory is refused.
func TestAnchorRestoredBackupFailsClosed(t *testing.T) {
	for _, which := range []string{"memo", "ledger"} {
		t.Run(which, func(t *testing.T) {
			root := t.TempDir()
			kc := &keychain{}
			cfg := NewConfig()
			cfg.Mechanism, cfg.Epsilon, cfg.Anchor = "1dg", 1, kc
			if which == "memo" {
				cfg.MemoDir, cfg.MemoSecret = filepath.Join(root, "memo"), make([]byte, 32)
			} else {
				cfg.LedgerDir = filepath.Join(root, "ledger")
			}
			dir := cfg.MemoDir + cfg.LedgerDir
			privatizeOnce := func(text string) error {
				p, err := OpenPrivatizer(cfg)
				if err != nil {
					return err
				}
				_, err = p.Privatize(text)
				return err
			}
			if err := privatizeOnce("first words"); err != nil {
				t.Fatal(err)
			}
			backup := snapshotDir(t, dir)
			if err := privatizeOnce("more words here"); err != nil {
				t.Fatal(err)
			}
			restoreDir(t, dir, backup)
			if _, err := OpenPrivatizer(cfg); ErrCode(errString(err)) != CodeCorruptState {
				t.Fatalf("restored backup with an anchor: %v, want %s", err, CodeCorruptState)
			}
			noAnchor := *cfg
			noAnchor.Anchor = nil
			if _, err := OpenPrivatizer(&noAnchor); ErrCode(errString(err)) != CodeInvalidArgument || !strings.Contains(err.Error(), "StateAnchor") {
				t.Fatalf("without an anchor: %v, want %s naming StateAnchor", err, CodeInvalidArgument)
			}
			noAnchor.NoAnchor = true
			if _, err := OpenPrivatizer(&noAnchor); err != nil {
				t.Fatalf("opted out of the anchor (not detected, documented): %v", err)
			}
			kc.fail = true
			if _, err := OpenPrivatizer(cfg); err == nil {
				t.Fatal("a failing anchor was ignored")
			}
		})
	}
	cfg := NewConfig()
	cfg.Anchor = &keychain{}
	if _, err := OpenPrivatizer(cfg); ErrCode(errString(err)) != CodeInvalidArgument {
		t.Fatalf("anchor without a directory: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func snapshotDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func restoreDir(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	os.RemoveAll(dir)
	os.MkdirAll(dir, 0o700)
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
