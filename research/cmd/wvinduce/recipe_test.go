package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/assetbuild"
	"github.com/wordveil/wordveil/research/internal/binarize"
)

// cacheDir is where the pinned downloads live (the Makefile's CACHE).
func cacheDir() string {
	if d := os.Getenv("WORDVEIL_CACHE"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "wordveil")
	}
	return ".cache"
}

// realAsset loads the default asset, its source vectors (the wink
// package's first 50,000 plain words) and the rebuilt projection, once per
// test binary; it skips when the wink package is not in the cache.
var realAsset = sync.OnceValues(func() (*realData, error) {
	path := filepath.Join(cacheDir(), assetbuild.WinkTarball)
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg := assetbuild.DefaultEnglish()
	src, err := binarize.ReadWinkPackage(bytes.NewReader(raw), binarize.ReadOptions{Keep: binarize.PlainWord, Limit: cfg.Words})
	if err != nil {
		return nil, err
	}
	a, err := wva.Default()
	if err != nil {
		return nil, err
	}
	p, err := assetProjection(src, cfg)
	if err != nil {
		return nil, err
	}
	return &realData{src: src, asset: a, proj: p}, nil
})

type realData struct {
	src   *binarize.Embeddings
	asset *wva.Asset
	proj  *binarize.Projection
}

func needReal(t testing.TB) *realData {
	t.Helper()
	if testing.Short() {
		t.Skip("real-data test skipped in -short mode")
	}
	if _, err := os.Stat(filepath.Join(cacheDir(), assetbuild.WinkTarball)); err != nil {
		t.Skipf("%s not in the cache %s (make fetch-source fetches it): %v", assetbuild.WinkTarball, cacheDir(), err)
	}
	d, err := realAsset()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestAssetProjectionReproducesAsset: the rebuilt binarizer encodes every
// source word the asset holds to exactly the asset's code, and a perturbed
// one does not.
func TestAssetProjectionReproducesAsset(t *testing.T) {
	d := needReal(t)
	if err := verifyCodes(d.proj, d.src, d.asset); err != nil {
		t.Fatal(err)
	}
	bad := *d.proj
	bad.W = slices.Clone(d.proj.W)
	for i := range bad.W[:bad.Dim] {
		bad.W[i] = -bad.W[i] // flip bit 0 of every code
	}
	if err := verifyCodes(&bad, d.src, d.asset); err == nil {
		t.Fatal("a perturbed projection passed VerifyCodes")
	}
}
