package core

import (
	"runtime"
	"testing"
	"weak"

	"github.com/wordveil/wordveil/assets"
)

// TestCloseLetsTheAssetGo: after Close, the asset an asset-bytes privatizer
// decoded can be collected although the handle itself stays reachable (as
// gobind keeps it until the Java finalizer runs); without Close (the
// negative control) it cannot.
func TestCloseLetsTheAssetGo(t *testing.T) {
	for _, closeIt := range []bool{true, false} {
		p, err := Open(Config{Asset: assets.DefaultBytes()})
		if err != nil {
			t.Fatal(err)
		}
		asset := weak.Make(p.asset)
		if closeIt {
			if err := p.Close(); err != nil {
				t.Fatal(err)
			}
		}
		runtime.GC()
		runtime.GC()
		if gone := asset.Value() == nil; gone != closeIt {
			t.Errorf("closed %v: asset collected %v", closeIt, gone)
		}
		runtime.KeepAlive(p)
	}
}
