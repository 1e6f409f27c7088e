package assetbuild

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

// BuildCusTextSets partitions the vocabulary into CusText's customized
// output sets (Chen et al., Findings of ACL 2023), greedily: while words
// remain, the unassigned word with the lowest id (ids are in frequency
// rank order, so the most frequent) and its k−1 nearest unassigned words
// form a group. "Nearest" is the Hamming distance between codes, searched
// exactly; ties are broken by the lowest id. The last group holds whatever
// is left (N mod k words when k does not divide N).
//
// Each group is found with one scan of the unassigned words: a histogram
// of their distances to the seed gives the cut distance T, and the scan in
// id order takes every word below T and the lowest ids at T. The total is
// about N²/(2k) distance computations (6·10⁷ at N = 50k, k = 20).
func BuildCusTextSets(codes []hamming.Code, k int) (*wva.CusTextSets, error) {
	n := len(codes)
	if k < 2 {
		// wva refuses it too; checked here so no work is done first.
		return nil, fmt.Errorf("%w: CusText group size %d, want ≥ 2", ErrConfig, k)
	}
	rest := make([]uint32, n) // unassigned ids, ascending
	for i := range rest {
		rest[i] = uint32(i)
	}
	dist := make([]uint16, n)
	var groups [][]uint32
	for len(rest) > 0 {
		seed := rest[0]
		others := rest[1:]
		want := min(k-1, len(others))
		var hist [hamming.Bits + 1]int
		for i, id := range others {
			d := hamming.Distance(codes[seed], codes[id])
			dist[i] = uint16(d)
			hist[d]++
		}
		cut, below := 0, 0 // below = words strictly closer than cut
		for ; cut <= hamming.Bits && below+hist[cut] < want; cut++ {
			below += hist[cut]
		}
		atCut := want - below // how many words at distance cut to take
		g := make([]uint32, 1, want+1)
		g[0] = seed
		kept := rest[:0]
		for i, id := range others {
			d := int(dist[i])
			if d < cut || (d == cut && atCut > 0) {
				if d == cut {
					atCut--
				}
				g = append(g, id)
				continue
			}
			kept = append(kept, id) // in place: kept never overtakes i+1
		}
		rest = kept
		groups = append(groups, g)
	}
	return wva.NewCusTextSets(n, k, groups)
}

// addCusText builds the sets of cfg.CusTextK into a and describes them in
// its header.
func addCusText(a *wva.Asset, k int, logf func(string, ...any)) error {
	s, err := BuildCusTextSets(a.Codes, k)
	if err != nil {
		return fmt.Errorf("CusText sets: %w", err)
	}
	a.CusText = s
	a.Header.CusText = &wva.CusTextInfo{Metric: "hamming"}
	logf("CusText sets: %d groups of %d, %d bytes in memory", s.Groups(), s.K(), s.SizeBytes())
	return nil
}
