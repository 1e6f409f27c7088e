package core

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The events of docs/STATE_FILES.md, through package core, with each
// configuration of the anchor: Open's default (files in
// os.UserConfigDir()/wordveil/anchors; TestMain points it at a temporary
// directory), an explicit Anchor, and NoAnchor.

// anchorConfigs are the three configurations; each call gives a fresh
// explicit anchor.
var anchorConfigs = []struct {
	name   string
	anchor func() Anchor
	closed bool // rollbacks fail closed
}{
	{"default", func() Anchor { return nil }, true},
	{"explicit", func() Anchor { return mapAnchor{} }, true},
	{"NoAnchor", func() Anchor { return NoAnchor }, false},
}

// stateConfig is a 1-DG configuration with a ledger, a memo or both under
// root, and a random secret: memos of one secret and identity share an
// anchor name wherever they are, and the default anchor is shared by
// every test of the process.
func stateConfig(t *testing.T, root, kinds string, a Anchor) Config {
	t.Helper()
	cfg := Config{Mechanism: OneDG, Level: Strong, Anchor: a}
	if strings.Contains(kinds, "ledger") {
		cfg.LedgerDir = filepath.Join(root, "ledger")
	}
	if strings.Contains(kinds, "memo") {
		cfg.MemoDir, cfg.MemoSecret = filepath.Join(root, "memo"), randomSecret()
	}
	return cfg
}

func randomSecret() []byte {
	b := make([]byte, 32)
	rand.Read(b)
	return b
}

func privatizeOnce(cfg Config, text string) (Result, error) {
	p, err := Open(cfg)
	if err != nil {
		return Result{}, err
	}
	defer p.Close()
	return p.Privatize(text)
}

func openOnce(cfg Config) error {
	p, err := Open(cfg)
	if err == nil {
		p.Close()
	}
	return err
}

// snapshot copies the regular files of the directories of cfg.
func snapshot(t *testing.T, cfg Config) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, d := range []string{cfg.LedgerDir, cfg.MemoDir} {
		if d == "" {
			continue
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = b
		}
	}
	return out
}

// restore puts the directories of cfg back as snap holds them.
func restore(t *testing.T, cfg Config, snap map[string][]byte) {
	t.Helper()
	removeState(t, cfg)
	for p, b := range snap {
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func removeState(t *testing.T, cfg Config) {
	t.Helper()
	for _, d := range []string{cfg.LedgerDir, cfg.MemoDir} {
		if d != "" {
			if err := os.RemoveAll(d); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestStateEvents: each event × anchor configuration × state kind.
//   - backup: copied after one text, used for another, restored;
//   - deleted: the directories deleted whole after use;
//   - reset: Reset, a fresh start (with a new memo secret), then the
//     pre-reset copy restored.
//
// With an anchor (default or explicit) each rollback is ErrCorruptState
// and a reset starts afresh; with NoAnchor each opens (what
// docs/STATE_FILES.md says is then lost).
func TestStateEvents(t *testing.T) {
	for _, ac := range anchorConfigs {
		for _, kinds := range []string{"ledger", "memo", "ledger+memo"} {
			t.Run(ac.name+"/"+kinds+"/backup", func(t *testing.T) {
				cfg := stateConfig(t, t.TempDir(), kinds, ac.anchor())
				mustPrivatize(t, cfg, "first words")
				backup := snapshot(t, cfg)
				mustPrivatize(t, cfg, "more words here")
				restore(t, cfg, backup)
				checkRollback(t, ac.closed, openOnce(cfg), "backup restored")
			})
			t.Run(ac.name+"/"+kinds+"/deleted", func(t *testing.T) {
				cfg := stateConfig(t, t.TempDir(), kinds, ac.anchor())
				mustPrivatize(t, cfg, "first words")
				removeState(t, cfg)
				checkRollback(t, ac.closed, openOnce(cfg), "directories deleted")
			})
			t.Run(ac.name+"/"+kinds+"/reset", func(t *testing.T) {
				cfg := stateConfig(t, t.TempDir(), kinds, ac.anchor())
				mustPrivatize(t, cfg, "first words")
				mustPrivatize(t, cfg, "more words here")
				backup := snapshot(t, cfg)
				if err := Reset(cfg); err != nil {
					t.Fatalf("Reset: %v", err)
				}
				old := cfg.MemoSecret
				fresh := cfg
				if fresh.MemoDir != "" {
					fresh.MemoSecret = randomSecret() // "forget me" replaces the secret too
				}
				r := mustPrivatize(t, fresh, "one")
				if r.Accounting.Ledger != nil && r.Accounting.Ledger.LifetimeSpent != r.Accounting.UnitFree {
					t.Fatalf("after Reset the ledger holds %v, want this call's %v alone", r.Accounting.Ledger.LifetimeSpent, r.Accounting.UnitFree)
				}
				restore(t, cfg, backup)
				// A restored memo is sealed with the old secret: under the
				// new one it never opens (ErrWrongSecret), anchor or not.
				checkRollback(t, ac.closed || fresh.MemoDir != "", openOnce(fresh), "pre-reset copy restored, new secret")
				if old != nil {
					checkRollback(t, ac.closed, openOnce(cfg), "pre-reset copy restored, old secret")
				}
			})
		}
	}
}

func mustPrivatize(t *testing.T, cfg Config, text string) Result {
	t.Helper()
	r, err := privatizeOnce(cfg, text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return r
}

func checkRollback(t *testing.T, closed bool, err error, what string) {
	t.Helper()
	switch {
	case closed && !errors.Is(err, ErrCorruptState):
		t.Errorf("%s: %v, want ErrCorruptState", what, err)
	case !closed && err != nil:
		t.Errorf("%s with NoAnchor: %v, want it to open (not detected, documented)", what, err)
	}
}

// TestDefaultAnchorPlace: the default anchor lives in
// os.UserConfigDir()/wordveil/anchors and Info says so; a data directory
// inside that directory, or containing it, is refused; NoAnchor needs a
// directory; an explicit anchor and NoAnchor leave Info.AnchorDir empty.
func TestDefaultAnchorPlace(t *testing.T) {
	base, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "wordveil")
	p, err := Open(Config{LedgerDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Info().AnchorDir; got != filepath.Join(home, "anchors") {
		t.Errorf("Info().AnchorDir = %q, want %q", got, filepath.Join(home, "anchors"))
	}
	p.Close()
	for _, a := range []Anchor{mapAnchor{}, NoAnchor} {
		p, err := Open(Config{LedgerDir: t.TempDir(), Anchor: a})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Info().AnchorDir; got != "" {
			t.Errorf("Anchor %T: Info().AnchorDir = %q, want empty", a, got)
		}
		p.Close()
	}
	for _, c := range []Config{
		{LedgerDir: filepath.Join(home, "ledger")},
		{MemoDir: filepath.Join(home, "anchors", "memo"), MemoSecret: randomSecret()},
		{LedgerDir: base},
		{Anchor: NoAnchor},
	} {
		if err := openOnce(c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%+v: %v, want ErrInvalidConfig", c, err)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "ledger")); err == nil {
		t.Error("a refused ledger directory was created")
	}
	if err := Reset(Config{}); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("Reset of nothing: %v", err)
	}
}

// TestMemoNewSecretAtPinnedPath: a memo directory deleted whole and
// started afresh under a new secret (the old memos' anchors are keyed by
// the old secret, so only the directory's pin can tell) fails closed;
// after Reset it opens.
func TestMemoNewSecretAtPinnedPath(t *testing.T) {
	for _, ac := range anchorConfigs[:2] {
		t.Run(ac.name, func(t *testing.T) {
			cfg := stateConfig(t, t.TempDir(), "memo", ac.anchor())
			mustPrivatize(t, cfg, "first words")
			removeState(t, cfg)
			cfg.MemoSecret = randomSecret()
			if err := openOnce(cfg); !errors.Is(err, ErrCorruptState) {
				t.Fatalf("a new secret where a memo was: %v", err)
			}
			if _, err := os.Stat(cfg.MemoDir); err == nil {
				if ents, _ := os.ReadDir(cfg.MemoDir); len(ents) != 0 {
					t.Fatalf("the refused open created %v", ents)
				}
			}
			if err := Reset(cfg); err != nil {
				t.Fatal(err)
			}
			mustPrivatize(t, cfg, "first words")
		})
	}
}
