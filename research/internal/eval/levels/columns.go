package levels

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/attack"
)

// BRR's attacker is a trained model (attack.HammingHist.TrainKeepKernel):
// the chance that a word is kept, estimated for the prior's
// BRRTrainWords most frequent words (ties to the lower id) from
// BRRTrainDraws draws each of the product's sampler, shrunk with weight
// BRRShrink towards the pooled keep rate (which stands for every other
// word), and a kernel e^(−λ·d) over the other allowed words' code
// distances, λ fitted on the same draws. It is a valid attacker but not
// the Bayes-optimal one, so its rates are lower bounds.
const (
	BRRTrainWords = 1000
	BRRTrainDraws = 200
	BRRShrink     = 10.0
)

// shared is what the cells of one asset share: the mechanisms' output
// restriction, as the product applies it, and the Hamming histograms
// over the allowed codes.
type shared struct {
	a       *wva.Asset
	outs    *mechanism.Outputs
	allowed []bool // nil: every word
	hist    *attack.HammingHist
	train   []int // BRR's training words
}

func newShared(a *wva.Asset, prior []float64, needHist bool, workers int) (*shared, error) {
	outs, err := mechanism.DefaultOutputs(a)
	if err != nil {
		return nil, err
	}
	s := &shared{a: a, outs: outs, allowed: outs.Mask(a.Len())}
	if needHist {
		if s.hist, err = attack.NewHammingHist(a.Codes, s.allowed, workers); err != nil {
			return nil, err
		}
	}
	order := make([]int, len(prior))
	for w := range order {
		order[w] = w
	}
	slices.SortStableFunc(order, func(x, y int) int { return -cmp.Compare(prior[x], prior[y]) })
	s.train = order[:min(BRRTrainWords, len(order))]
	return s, nil
}

// usesHist reports whether the mechanism's column needs the histograms.
func usesHist(name string) bool {
	switch name {
	case mechanism.NameBRR, mechanism.NameTEMHamming, mechanism.NameSanText:
		return true
	}
	return false
}

// law builds the product's mechanism name at ε (mechanism.New with the
// asset's default output vocabulary) and the attacker's column for it,
// with the same output restriction. BRR's column is trained from train.
// lowerBound says the column is not the exact law (BRR).
func (s *shared) law(name string, eps float64, train rand.Source) (m mechanism.Mechanism, col attack.Column, lowerBound bool, err error) {
	m, err = mechanism.New(name, s.a, eps, mechanism.Options{Outputs: s.outs})
	if err != nil {
		return nil, nil, false, err
	}
	gamma := func() (float64, error) {
		g, ok := m.(interface{ Gamma() float64 })
		if !ok {
			return 0, fmt.Errorf("%w: %s reports no γ", ErrInvalid, name)
		}
		return g.Gamma(), nil
	}
	switch name {
	case mechanism.NameTEMHamming, mechanism.NameSanText:
		g, err := gamma()
		if err != nil {
			return nil, nil, false, err
		}
		col, err = s.hist.TEM(g, eps)
		return m, col, false, err
	case mechanism.NameBRR:
		col, err = s.hist.TrainKeepKernel(m, train, s.train, BRRTrainDraws, BRRShrink)
		return m, col, true, err
	case mechanism.Name1DG, mechanism.Name1DT:
		var g float64
		if name == mechanism.Name1DT {
			if g, err = gamma(); err != nil {
				return nil, nil, false, err
			}
		}
		var parts []attack.Column
		for _, l := range s.a.Lists {
			pos := make([]int, len(l.Pos))
			for w, p := range l.Pos {
				pos[w] = int(p)
			}
			var c attack.Column
			switch {
			case name == mechanism.Name1DT:
				c, err = attack.NewListTEM(pos, g, eps, s.allowed)
			case s.allowed == nil:
				c, err = attack.NewGeometric(pos, eps)
			default:
				c, err = attack.NewRestrictedGeometric(pos, eps, s.allowed)
			}
			if err != nil {
				return nil, nil, false, err
			}
			parts = append(parts, c)
		}
		// The product picks a list uniformly: the law is the mixture.
		col, err = attack.NewMixture(parts...)
		return m, col, false, err
	case mechanism.NameCusText:
		sets := s.a.CusText
		if sets == nil {
			return nil, nil, false, fmt.Errorf("%w: the asset has no CusText sets", ErrInvalid)
		}
		groups := make([]int, s.a.Len())
		var buf []uint32
		for g := range sets.Groups() {
			buf = sets.Members(g, buf[:0])
			for _, w := range buf {
				groups[w] = g
			}
		}
		codes := s.a.Codes
		dist := func(x, y int) float64 { return float64(hamming.Distance(codes[x], codes[y])) }
		col, err = attack.NewCusText(s.a.Len(), dist, groups, nil, eps, s.allowed)
		return m, col, false, err
	}
	return nil, nil, false, fmt.Errorf("%w: no attacker's column for mechanism %q", ErrInvalid, name)
}
