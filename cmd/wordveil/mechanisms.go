package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/hamming"
)

// mechanismSpec is how the CLI names a mechanism and its privacy.
type mechanismSpec struct {
	Name    string  // core.NameBRR, ...
	Epsilon float64 // > 0, or 0 to use Preset
	Preset  string  // core.LevelBalanced, ...
}

// build returns the mechanism, its ε, and a description.
func (s mechanismSpec) build(a *wva.Asset, idx *hamming.Index) (core.Mechanism, float64, error) {
	eps := s.Epsilon
	if eps == 0 {
		var err error
		if eps, err = core.PresetEpsilon(s.Name, s.Preset); err != nil {
			return nil, 0, fmt.Errorf("%w: %v", errUsage, err)
		}
	} else if !(eps > 0) || math.IsInf(eps, 0) {
		return nil, 0, fmt.Errorf("%w: -epsilon %v: must be a finite number > 0", errUsage, eps)
	}
	var m core.Mechanism
	var err error
	switch s.Name {
	case core.NameBRR:
		m, err = core.NewBRR(idx, eps)
	case core.NameTEMHamming:
		m, err = core.NewTEMHamming(idx, eps, core.TEMOptions{})
	case core.NameTEM:
		if a.TEM == nil {
			return nil, 0, errors.New("the asset has no TEM lists")
		}
		m, err = core.NewTEM(a.TEM, eps, core.TEMOptions{})
	case core.Name1DG:
		m, err = core.NewDiffractorGeometric(a.Lists, eps)
	case core.Name1DT:
		m, err = core.NewDiffractorTEM(a.Lists, eps, core.TEMOptions{})
	default:
		return nil, 0, fmt.Errorf("%w: unknown mechanism %q (want one of %v)", errUsage, s.Name, core.MechanismNames())
	}
	if err != nil {
		return nil, 0, err
	}
	return m, eps, nil
}
