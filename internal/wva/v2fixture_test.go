package wva

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
)

// v21Asset is the asset testdata/v2.1-full.wva holds: every section kind
// a 2.1 file could carry (vocabulary with non-ASCII words, codes, two
// lists, TEM lists, float vectors, CusText sets, stand-ins) and an
// exclusion list. The file was written by the 2.1 writer (commit 1d9fb79)
// and is kept so that the reader of the previous format stays tested.
func v21Asset(tb testing.TB) *Asset {
	tb.Helper()
	r := rand.New(rand.NewPCG(2026, 11))
	a := genAsset(tb, r, genOpts{n: 300, lists: 2, tem: true, neighbors: 6, dim: 3, utf8: true})
	a.Header.Name = "v2.1-full"
	a.Header.Description = "format 2.1 file with every section kind, kept to test the reader of the previous format"
	var groups [][]uint32
	for g := 0; g < 300; g += 4 {
		groups = append(groups, []uint32{uint32(g), uint32(g + 1), uint32(g + 2), uint32(g + 3)})
	}
	a.CusText = mustSets(tb, 300, 4, groups)
	a.Header.CusText = &CusTextInfo{Metric: "hamming"}
	var words []string
	var ids []int32
	for i := range 40 {
		words = append(words, fmt.Sprintf("stand-in-%02d", i))
		ids = append(ids, int32((i*37)%300))
	}
	a.StandIns = mustStandIns(tb, 300, words, ids)
	a.Header.Excluded = &Excluded{IDs: []uint32{5, 17, 299}, Source: "test", Licence: "CC0-1.0"}
	return a
}

func TestWriteV21Fixture(t *testing.T) {
	if os.Getenv("WVA_WRITE_V21") == "" {
		t.Skip()
	}
	if err := os.WriteFile("testdata/v2.1-full.wva", mustMarshal(t, v21Asset(t)), 0o644); err != nil {
		t.Fatal(err)
	}
}
