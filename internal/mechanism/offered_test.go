package mechanism

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

func TestOffered(t *testing.T) {
	want := slices.DeleteFunc(Names(), func(n string) bool { return n == NameTEM })
	if got := Offered(); !slices.Equal(got, want) || !slices.IsSorted(got) || slices.Contains(got, NameTEM) {
		t.Fatalf("Offered() = %v, want %v", got, want)
	}
	for _, n := range Offered() {
		if err := CheckOffered(n, nil); err != nil {
			t.Errorf("CheckOffered(%q) = %v for an offered name", n, err)
		}
	}
	if err := CheckOffered("bogus", nil); err != nil {
		t.Errorf("CheckOffered(bogus) = %v: an unknown name is New's to refuse", err)
	}
}

// TestNotOfferedTEM: the refusal (ErrNotOffered) of Euclidean TEM names 1-DT, and its
// figures are the asset's: γ_max from the header, the floor the mechanism
// itself enforces (to the 4 digits its own error quotes). At that floor,
// nearly every word comes back unchanged, as the message says.
func TestNotOfferedTEM(t *testing.T) {
	a := defaultAsset(t)
	floor := roundUp(temFloor(a.TEM, TEMOptions{}))
	for _, tc := range []struct {
		name string
		a    *wva.Asset
		want []string
	}{
		{"embedded asset", a, []string{"γ_max " + strconv.FormatFloat(a.TEM.GammaMax(), 'g', -1, 64), "ε ≥ " + strconv.FormatFloat(floor, 'g', -1, 64)}},
		{"no asset", nil, nil},
		{"asset without TEM lists", &wva.Asset{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckOffered(NameTEM, tc.a)
			if !errors.Is(err, ErrNotOffered) {
				t.Fatalf("CheckOffered(tem) = %v, want ErrNotOffered", err)
			}
			why := err.Error()
			for _, s := range append(tc.want, "tem (TEM over", "is not offered", "keep", "use 1dt (TEM over 1-Diffractor's precomputed lists)", "tem-hamming") {
				if !strings.Contains(why, s) {
					t.Errorf("%q lacks %q", why, s)
				}
			}
		})
	}
	m, err := NewTEM(a.TEM, floor, TEMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := rand.NewChaCha8(stattest.Seed("tem-at-its-floor"))
	const words, draws = 200, 50
	kept := 0
	for i := range words {
		w := i * (a.Len() / words)
		for range draws {
			y, err := m.Privatize(w, src)
			if err != nil {
				t.Fatal(err)
			}
			if y == w {
				kept++
			}
		}
	}
	share := float64(kept) / (words * draws)
	t.Logf("%v\nkept at ε %v: %.4f", CheckOffered(NameTEM, a), floor, share)
	if share < 0.98 {
		t.Errorf("at its floor ε %v, TEM kept %.3f of the words: the refusal's \"keeps nearly every word\" is wrong", floor, share)
	}
}
