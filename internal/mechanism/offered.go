package mechanism

import (
	"fmt"
	"slices"

	"github.com/wordveil/wordveil/internal/wva"
)

// The product's front doors (package core, and through it the CLI, the
// mobile binding and the Beam pipeline) offer every mechanism New builds
// but NameTEM. TEM over the asset's Euclidean lists stays here, for the
// research module and the audit, because on the device it cannot protect:
// the lists hold, for each word, the words within γ_max (3.81 on the
// embedded asset), so Theorem 4.2's γ fits in them only from ε ≈ 9.31, and
// at such an ε a neighbour at Euclidean distance d weighs e^(−ε·d/2)
// against the word itself: nearly every word comes back unchanged (mean
// N_w ≈ 0.999, docs/PRIVACY_LEVELS.md). The device's TEM over
// precomputed neighbour lists is 1-DT: TEM along 1-Diffractor's lists.

// Offered lists, sorted, the mechanisms the product's front doors offer:
// Names without NameTEM.
func Offered() []string {
	return slices.DeleteFunc(Names(), func(n string) bool { return n == NameTEM })
}

// NotOffered returns why the front doors refuse name, a mechanism New
// builds but the product does not offer, quoting the figures of asset a
// where it has them (a may be nil); "" when name is offered, or unknown
// (New's error says so).
func NotOffered(name string, a *wva.Asset) string {
	if name != NameTEM {
		return ""
	}
	const use = "use 1dt (TEM over 1-Diffractor's precomputed lists) or tem-hamming (TEM on the codes)"
	if a == nil || a.Header.TEM == nil {
		return fmt.Sprintf("%s (TEM over an asset's Euclidean lists) is not offered: the ε its lists admit keep nearly every word; %s", name, use)
	}
	g := a.Header.TEM.GammaMax
	return fmt.Sprintf("%s (TEM over the asset's Euclidean lists) is not offered: on this asset its lists (γ_max %v) admit only ε ≥ %v, where it keeps nearly every word; %s",
		name, g, roundUp(listsFloor(a.Header.Words, g, TEMOptions{})), use)
}
