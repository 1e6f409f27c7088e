package assetbuild

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

// referenceGreedy is the greedy grouping written the slow, obvious way:
// sort the unassigned words by (distance to the seed, id) and take the
// first k−1. farthest flips the distance order (pypantera's cosine bug:
// the least similar words), for the negative control.
func referenceGreedy(codes []hamming.Code, k int, farthest bool) [][]uint32 {
	assigned := make([]bool, len(codes))
	var groups [][]uint32
	for seed := range codes {
		if assigned[seed] {
			continue
		}
		var cand []int
		for id := seed + 1; id < len(codes); id++ {
			if !assigned[id] {
				cand = append(cand, id)
			}
		}
		key := func(id int) int {
			d := hamming.Distance(codes[seed], codes[id])
			if farthest {
				return -d
			}
			return d
		}
		slices.SortStableFunc(cand, func(a, b int) int { return key(a) - key(b) }) // stable: ids ascending within a distance
		g := []uint32{uint32(seed)}
		assigned[seed] = true
		for _, id := range cand[:min(k-1, len(cand))] {
			g = append(g, uint32(id))
			assigned[id] = true
		}
		slices.Sort(g)
		groups = append(groups, g)
	}
	return groups
}

// randomCodes draws n codes with only the low `bits` bits random, so that
// many distances tie.
func randomCodes(r *rand.Rand, n, bits int) []hamming.Code {
	codes := make([]hamming.Code, n)
	for i := range codes {
		for b := range bits {
			if r.IntN(2) == 1 {
				codes[i][b/64] |= 1 << (b % 64)
			}
		}
	}
	return codes
}

func TestBuildCusTextSetsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	for _, tc := range []struct {
		name       string
		n, k, bits int
	}{
		{"empty", 0, 2, 8},
		{"one word", 1, 3, 8},
		{"k above N", 5, 8, 8},
		{"many ties (4 bits)", 60, 4, 4},
		{"last group short", 61, 5, 12},
		{"all codes equal", 30, 7, 0},
		{"wide codes", 200, 20, 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			codes := randomCodes(r, tc.n, tc.bits)
			s, err := BuildCusTextSets(codes, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			want := referenceGreedy(codes, tc.k, false)
			if s.Groups() != len(want) {
				t.Fatalf("%d groups, reference has %d", s.Groups(), len(want))
			}
			for g, m := range want {
				if got := s.Members(g, nil); !slices.Equal(got, m) {
					t.Fatalf("group %d = %v, reference %v", g, got, m)
				}
			}
		})
	}
}

// TestBuildCusTextSetsNegativeControl: the comparison above can fail —
// the least-similar grouping (pypantera's bug) differs from the builder's.
func TestBuildCusTextSetsNegativeControl(t *testing.T) {
	codes := randomCodes(rand.New(rand.NewPCG(5, 5)), 80, 64)
	s, err := BuildCusTextSets(codes, 5)
	if err != nil {
		t.Fatal(err)
	}
	bad := referenceGreedy(codes, 5, true)
	for g, m := range bad {
		if !slices.Equal(s.Members(g, nil), m) {
			return
		}
	}
	t.Fatal("the farthest-words grouping equals the nearest-words one")
}

func TestBuildCusTextSetsInvalid(t *testing.T) {
	for _, k := range []int{-1, 0, 1} {
		if _, err := BuildCusTextSets(make([]hamming.Code, 3), k); !errors.Is(err, ErrConfig) {
			t.Errorf("k = %d: err = %v, want ErrConfig", k, err)
		}
	}
	if _, err := BuildCusTextSets(make([]hamming.Code, 3), 5000); err == nil {
		t.Error("k = 5000 accepted")
	}
	for _, k := range []int{1, -3, 4097} {
		c := Config{Words: 10, Binarizer: SRP, CusTextK: k}
		if err := c.validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("Config.CusTextK = %d: %v", k, err)
		}
	}
}

// BenchmarkBuildCusTextSets times the greedy grouping at a tenth of the
// product's vocabulary (the cost grows as N²/k).
func BenchmarkBuildCusTextSets(b *testing.B) {
	codes := randomCodes(rand.New(rand.NewPCG(1, 2)), 5000, 256)
	for b.Loop() {
		if _, err := BuildCusTextSets(codes, 20); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCusTextSetsOnDefaultAsset builds the sets at the product's scale
// (the embedded asset's 50k codes, K = 20), stores them, and checks the
// file grows by the section's size only, decodes to the same partition,
// and that the first groups are the nearest unassigned words.
func TestCusTextSetsOnDefaultAsset(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sets over 50k words")
	}
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	const k = 20
	s, err := BuildCusTextSets(a.Codes, k)
	if err != nil {
		t.Fatal(err)
	}
	before, err := wva.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	with := (&wva.Asset{Header: a.Header, Codes: a.Codes, Lists: a.Lists, TEM: a.TEM, Floats: a.Floats,
		CusText: s, StandIns: a.StandIns}).SetWords(a.WordList())
	with.Header.CusText = &wva.CusTextInfo{Metric: "hamming"}
	after, err := wva.Marshal(with)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d words, %d groups of %d; file %d → %d bytes (+%d)", s.Len(), s.Groups(), s.K(), len(before), len(after), len(after)-len(before))
	if grow := len(after) - len(before); grow > 16+2*s.Len()+256 { // section, table entry, header field, padding
		t.Errorf("the sets add %d bytes, want about 2 per word", grow)
	}
	got, err := wva.Decode(after)
	if err != nil {
		t.Fatal(err)
	}
	for g := range s.Groups() {
		if !slices.Equal(got.CusText.Members(g, nil), s.Members(g, nil)) {
			t.Fatalf("group %d differs after decoding", g)
		}
	}
	// The first three groups by the definition: group 0 is word 0 and its
	// k−1 nearest; then the lowest word left and its nearest among the
	// words left.
	taken := map[uint32]bool{}
	for g := range 3 {
		m := s.Members(g, nil)
		seed := m[0]
		var cand []int
		for w := int(seed) + 1; w < len(a.Codes); w++ {
			if !taken[uint32(w)] {
				cand = append(cand, w)
			}
		}
		slices.SortStableFunc(cand, func(x, y int) int {
			return hamming.Distance(a.Codes[seed], a.Codes[x]) - hamming.Distance(a.Codes[seed], a.Codes[y])
		})
		want := []uint32{seed}
		for _, w := range cand[:k-1] {
			want = append(want, uint32(w))
		}
		slices.Sort(want)
		if !slices.Equal(want, m) {
			t.Fatalf("group %d = %v, want %v", g, m, want)
		}
		for _, w := range m {
			taken[w] = true
		}
	}
}
