package assets

import (
	"testing"

	"github.com/wordveil/wordveil/binaryembed/wva"
)

func TestDefaultLoads(t *testing.T) {
	a, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != 50000 || len(a.Codes) != 50000 || len(a.Lists) != 2 || a.TEM == nil {
		t.Fatalf("unexpected shape: %d words, %d codes, %d lists, TEM %v", a.Len(), len(a.Codes), len(a.Lists), a.TEM != nil)
	}
	if a.Header.Licence.SPDX != "PDDL-1.0" || a.Header.Licence.Notice == "" {
		t.Fatalf("licence missing: %+v", a.Header.Licence)
	}
	for _, w := range []string{"the", "privacy", "keyboard", "thousand"} {
		if _, ok := a.Lookup(w); !ok {
			t.Errorf("%q not in the default vocabulary", w)
		}
	}
	if b, _ := Default(); b != a {
		t.Fatal("Default decoded twice")
	}
	if a.TEM.GammaMax() != 4.25 {
		t.Fatalf("gamma_max %v", a.TEM.GammaMax())
	}
}

// BenchmarkLoadDefault measures decode + verify of the embedded asset, and
// reports the Go heap it keeps (see docs/BENCHMARKS.md).
func BenchmarkLoadDefault(b *testing.B) {
	var a *wva.Asset
	for b.Loop() {
		var err error
		if a, err = wva.Decode(DefaultBytes()); err != nil {
			b.Fatal(err)
		}
	}
	_ = a
}
