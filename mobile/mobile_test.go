package mobile

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/assets"
)

func TestEveryMechanism(t *testing.T) {
	for _, mech := range []string{"brr", "tem-hamming", "1dg", "1dt"} {
		cfg := NewConfig()
		cfg.Mechanism = mech
		p, err := OpenPrivatizer(cfg)
		if err != nil {
			t.Fatalf("%s: %v", mech, err)
		}
		r, err := p.Privatize("Call Dr. Smith at 555-0100, e-mail smith@example.org")
		if err != nil {
			t.Fatalf("%s: %v", mech, err)
		}
		if strings.Contains(r.Text, "555") || strings.Contains(r.Text, "@") || r.Words == 0 || r.OOV < 2 || r.UnitFree <= 0 {
			t.Fatalf("%s: %+v", mech, r)
		}
	}
	cfg := NewConfig()
	cfg.Mechanism, cfg.Preset = "custext", "light" // its only level on the default asset
	p, err := OpenPrivatizer(cfg)
	if err != nil {
		t.Fatalf("custext: %v", err)
	}
	// P_avg is unknown for CusText's sets: the loss reads as unknown,
	// never as 0.
	r, err := p.Privatize("the cat sat")
	if err != nil || r.LossKnown || r.LossUnknown == "" || !math.IsNaN(r.UnitFree) || !math.IsNaN(r.PAvg) {
		t.Fatalf("custext accounting: %+v, %v", r, err)
	}
	cfg = NewConfig()
	cfg.Epsilon = 50 // BRR saturates near 10 per bit
	if _, err := OpenPrivatizer(cfg); ErrCode(fmt.Sprint(err)) != CodeInvalidArgument {
		t.Fatalf("saturated ε: %v", err)
	}
	cfg.AllowSaturatedEpsilon = true
	if _, err := OpenPrivatizer(cfg); err != nil {
		t.Fatalf("allowed saturated ε: %v", err)
	}
	cfg = NewConfig()
	cfg.MemoDir, cfg.Anchor = t.TempDir(), &keychain{}
	if _, err := OpenPrivatizer(cfg); ErrCode(fmt.Sprint(err)) != CodeInvalidArgument {
		t.Fatalf("memo without a secret: %v", err)
	}
	cfg.MemoSecret = make([]byte, 32)
	if _, err := OpenPrivatizer(cfg); err != nil {
		t.Fatalf("memo with a secret: %v", err)
	}
}

func TestErrorCodes(t *testing.T) {
	for _, tc := range []struct {
		mutate func(*Config)
		code   string
	}{
		{func(c *Config) { c.Epsilon = -1 }, CodeInvalidArgument},
		{func(c *Config) { c.Mechanism = "vickrey" }, CodeInvalidArgument},
		{func(c *Config) { c.Preset = "paranoid" }, CodeInvalidArgument},
		{func(c *Config) { c.OOV = "keep" }, CodeInvalidArgument},
		{func(c *Config) { c.Mechanism, c.Epsilon = "tem", 10 }, CodeInvalidArgument}, // not offered
		{func(c *Config) { c.MaxTextBytes = -5 }, CodeInvalidArgument},
	} {
		cfg := NewConfig()
		tc.mutate(cfg)
		if _, err := OpenPrivatizer(cfg); err == nil || ErrCode(err.Error()) != tc.code {
			t.Errorf("%+v: err %v, want code %s", *cfg, err, tc.code)
		}
	}
	b := append([]byte(nil), assets.DefaultBytes()...)
	b[len(b)/2] ^= 0xff
	if _, err := OpenPrivatizerFromAsset(b, nil); err == nil || ErrCode(err.Error()) != CodeCorruptAsset {
		t.Errorf("corrupt asset: %v", err)
	}
	if _, err := OpenPrivatizerFromAsset(b[:100], nil); err == nil || ErrCode(err.Error()) != CodeCorruptAsset {
		t.Errorf("truncated asset: %v", err)
	}
	if _, err := OpenPrivatizerFromFile("/nonexistent/x.wva", nil); err == nil || ErrCode(err.Error()) != CodeIO {
		t.Errorf("missing file: %v", err)
	}
	p, _ := OpenPrivatizer(nil)
	if _, err := p.Privatize(""); ErrCode(err.Error()) != CodeEmptyText {
		t.Errorf("empty text: %v", err)
	}
	if _, err := p.Deniability(0, 10); ErrCode(err.Error()) != CodeInvalidArgument {
		t.Errorf("deniability(0): %v", err)
	}
}

func TestAssetBytesCopied(t *testing.T) {
	b := append([]byte(nil), assets.DefaultBytes()...)
	p, err := OpenPrivatizerFromAsset(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] = 0 // the caller reuses its array
	}
	if _, err := p.Privatize("the privatizer still works"); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentAndBudget(t *testing.T) {
	cfg := NewConfig()
	cfg.Mechanism = "1dg"
	cfg.LedgerDir, cfg.Anchor = t.TempDir(), &keychain{}
	p0, _ := OpenPrivatizer(cfg)
	r, _ := p0.Privatize("the cat")
	perCall := r.UnitFree
	cfg.CapLifetime = perCall * 100.5 // 100 more calls
	p, err := OpenPrivatizer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				r, err := p.Privatize("the cat")
				mu.Lock()
				switch {
				case err == nil && r.Text != "":
					ok++
				case err != nil && ErrCode(err.Error()) == CodeBudgetExceeded && r == nil:
					refused++
				default:
					t.Errorf("%v %v", r, err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ok != 99 || refused != 101 { // 1 earlier call + 99 = 100 within the cap
		t.Fatalf("ok %d refused %d", ok, refused)
	}
}

func TestLargeText(t *testing.T) {
	cfg := NewConfig()
	cfg.Mechanism = "1dt"
	p, _ := OpenPrivatizer(cfg)
	text := strings.Repeat("privacy matters to everyone ", 40000) // ~1.1 MB
	r, err := p.Privatize(text)
	if err != nil || r.Words != 160000 {
		t.Fatalf("%v, %d words", err, r.Words)
	}
}

func TestMemoryControls(t *testing.T) {
	old := SetMemoryLimit(-1)
	SetMemoryLimit(old)
	FreeOSMemory()
	if Version() == "" {
		t.Fatal("no version")
	}
}
