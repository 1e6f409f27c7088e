package levelfacts

import (
	"encoding/hex"

	"github.com/wordveil/wordveil/internal/wva"
)

// attackBound is a two-sided bound on the best one-word attacker's top-1
// (lo, hi) and top-5 (lo5, hi5) recovery against a mechanism at one ε on
// one asset, where the asset's own facts give only a lower bound (BRR:
// its law has no closed form). It was measured offline by the research
// module's eval brrbound on the held-out text's tokens: each side holds
// with probability at least 1 − delta, for an attacker who knows the
// text's word frequencies, so it bounds the table's attacker, who knows
// less, from above too.
type attackBound struct {
	asset            string // hex SHA-256 of the asset measured
	mechanism, level string
	epsilon          float64
	lo, hi           float64
	lo5, hi5         float64 // hi5 = 0: top-5 not measured (an upper bound never is 0)
	draws            int
	delta            float64
}

// boundFor returns the measured bound for row r on asset a, if one was
// measured on exactly this asset at exactly r's ε: a bound for another
// asset or ε says nothing here, and is not used.
func boundFor(a *wva.Asset, r Row) (attackBound, bool) {
	if a == nil || len(measuredBounds) == 0 {
		return attackBound{}, false
	}
	sum := a.SHA256()
	sha := hex.EncodeToString(sum[:])
	for _, b := range measuredBounds {
		if b.asset == sha && b.mechanism == r.Mechanism && b.level == r.Level && b.epsilon == r.Epsilon {
			return b, true
		}
	}
	return attackBound{}, false
}

// hasBound reports whether any bound was measured on asset a.
func hasBound(a *wva.Asset) bool {
	if a == nil {
		return false
	}
	sum := a.SHA256()
	sha := hex.EncodeToString(sum[:])
	for _, b := range measuredBounds {
		if b.asset == sha {
			return true
		}
	}
	return false
}
