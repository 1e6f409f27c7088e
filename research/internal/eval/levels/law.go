package levels

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/attack"
)

// Preset is one mechanism at one level of an asset, with the level's ε.
type Preset struct {
	Mechanism, Level string
	Epsilon          float64
}

// Presets lists the cells Measure measures: every mechanism and level the
// asset has a preset for (a level the calibration could not reach is
// left out), in no particular order.
func Presets(a *wva.Asset) ([]Preset, error) {
	if a == nil || a.Len() == 0 {
		return nil, fmt.Errorf("%w: nil or empty asset", ErrInvalid)
	}
	if a.Header.Presets == nil || len(a.Header.Presets.Epsilon) == 0 {
		return nil, fmt.Errorf("%w: asset %q has no presets", ErrInvalid, a.Header.Name)
	}
	var out []Preset
	for name, lv := range a.Header.Presets.Epsilon {
		for _, level := range Levels {
			eps, err := mechanism.Preset(a, name, level)
			if err != nil {
				if _, ok := lv[level]; ok {
					return nil, err
				}
				continue // a level the calibration could not reach
			}
			out = append(out, Preset{name, level, eps})
		}
	}
	return out, nil
}

// Laws hands other attackers (package ctxattack) what Measure's one-word
// attacker uses: the product's mechanism at a preset and the attacker's
// column for it, so that they attack with the same law.
type Laws struct {
	s    *shared
	hist bool
}

// NewLaws prepares the laws of presets (Presets(a), or some of them)
// with the attacker's prior (which picks BRR's training words); workers
// (< 1 means 1) build the Hamming histograms when a preset needs them.
func NewLaws(a *wva.Asset, prior []float64, presets []Preset, workers int) (*Laws, error) {
	if a == nil || a.Len() == 0 {
		return nil, fmt.Errorf("%w: nil or empty asset", ErrInvalid)
	}
	if len(prior) != a.Len() {
		return nil, fmt.Errorf("%w: prior over %d words, asset has %d", ErrInvalid, len(prior), a.Len())
	}
	needHist := false
	for _, p := range presets {
		needHist = needHist || usesHist(p.Mechanism)
	}
	s, err := newShared(a, prior, needHist, max(workers, 1))
	if err != nil {
		return nil, err
	}
	return &Laws{s: s, hist: needHist}, nil
}

// Law returns the product's mechanism at p and the attacker's column for
// it: for BRR the model Measure trains with the same seed (the same
// draws, so the same column as Measure's cell), with lowerBound set.
func (l *Laws) Law(p Preset, seed uint64) (m mechanism.Mechanism, col attack.Column, lowerBound bool, err error) {
	if l == nil || l.s == nil {
		return nil, nil, false, fmt.Errorf("%w: nil Laws", ErrInvalid)
	}
	if usesHist(p.Mechanism) && !l.hist {
		return nil, nil, false, fmt.Errorf("%w: %s was not among NewLaws' presets", ErrInvalid, p.Mechanism)
	}
	return l.s.law(p.Mechanism, p.Epsilon, seeded.Key(cellKey(seed, p.Mechanism, p.Level, "train")))
}

// Key is a generator for another purpose in a cell (an attacker's own
// draws), keyed as Measure keys its cells: SHA-256 of the seed, the
// mechanism, the level and the purpose.
func Key(seed uint64, p Preset, purpose string) [32]byte {
	return cellKey(seed, p.Mechanism, p.Level, purpose)
}
