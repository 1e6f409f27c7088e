package assets_test

import (
	"bytes"
	"compress/flate"
	"fmt"
	"testing"

	"github.com/wordveil/wordveil/assets"
)

// The embedded file starts with the asset magic; a decoder (package
// binaryembed, or the SDK's engine) verifies the rest.
func ExampleDefaultBytes() {
	b := assets.DefaultBytes()
	fmt.Printf("%s: %q\n", assets.DefaultName, b[:7])
	// Output: en-glove100-50k.wva: "WVASSET"
}

// The asset's size budgets. An app ships the asset inside its package
// (APK and IPA files are zip archives, DEFLATE at level 6 by default), so
// that is the size that counts: at most 10% above the 3,914,013 bytes
// the format-2 asset compressed to the same way, the layout read into memory (issue
// 26). On disk (and in the program image) format 3 is larger, since the
// word tables are no longer compressed in the file: 4,991,217 bytes
// today, budget 5 MiB.
const (
	budgetOnDisk  = 5 << 20
	budgetShipped = 3914013 * 11 / 10
)

// TestSizeBudget guards the asset's size on disk and as shipped. The heap
// a decoded asset keeps is internal/wva's TestDefaultHeapBudget.
func TestSizeBudget(t *testing.T) {
	if n := len(assets.DefaultBytes()); n > budgetOnDisk {
		t.Errorf("default asset is %d bytes, budget %d", n, budgetOnDisk)
	}
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, 6)
	_, _ = w.Write(assets.DefaultBytes())
	_ = w.Close()
	t.Logf("default asset: %d bytes, %d as an app package compresses it (DEFLATE level 6)", len(assets.DefaultBytes()), z.Len())
	if z.Len() > budgetShipped {
		t.Errorf("default asset compresses to %d bytes, budget %d", z.Len(), budgetShipped)
	}
}
