package mechanism

import (
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/keepwords"
	"github.com/wordveil/wordveil/internal/wva"
)

// The "+" variants are implemented here, next to the samplers they share,
// and handed to internal/keepwords only: outside this module nothing can
// build them (they release some words unchanged by construction).
func init() {
	keepwords.Register(
		func(index *hamming.Index, eps float64, opts keepwords.SanTextPlusOptions) (keepwords.Mechanism, error) {
			return asMechanism(newSanTextPlus(index, eps, opts, nil))
		},
		func(a *wva.Asset, eps float64) (keepwords.Mechanism, error) { return newCusTextPlus(a, eps) },
	)
}
