package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/core"
)

// mechanismSpec is how the CLI names a mechanism and its privacy.
type mechanismSpec struct {
	Name    string  // core.NameBRR, ...
	Epsilon float64 // > 0, or 0 to use Preset
	Preset  string  // core.LevelBalanced, ...
}

// build returns the mechanism and its ε. A refused ε (invalid, or so
// large the output is almost surely the input, unless allowSaturated) and
// an unknown name are usage errors.
func (s mechanismSpec) build(a *wva.Asset, allowSaturated bool) (core.Mechanism, float64, error) {
	eps := s.Epsilon
	if eps == 0 {
		var err error
		if eps, err = core.PresetEpsilon(s.Name, s.Preset); err != nil {
			return nil, 0, fmt.Errorf("%w: %v", errUsage, err)
		}
		if err := core.CheckPresets(a); err != nil {
			return nil, 0, fmt.Errorf("%w: -preset %s: %v", errUsage, s.Preset, err)
		}
	} else if !(eps > 0) || math.IsInf(eps, 0) {
		return nil, 0, fmt.Errorf("%w: -epsilon %v: must be a finite number > 0", errUsage, eps)
	}
	m, err := core.NewMechanism(s.Name, a, eps, core.MechanismOptions{AllowSaturated: allowSaturated})
	if errors.Is(err, core.ErrUnknownMechanism) || errors.Is(err, core.ErrEpsilonSaturated) || errors.Is(err, core.ErrInvalidEpsilon) {
		return nil, 0, fmt.Errorf("%w: %v", errUsage, err)
	}
	if err != nil {
		return nil, 0, err
	}
	return m, eps, nil
}

// presetMechanisms are the on-device mechanisms that have presets, in the
// order the CLI shows them.
var presetMechanisms = []string{core.NameBRR, core.NameTEMHamming, core.Name1DG, core.Name1DT}

// presetPrivatizer builds the named mechanism at a preset over a, wrapped in
// a text privatizer with default options, and returns it with its ε.
func presetPrivatizer(a *wva.Asset, name, preset string) (*core.TextPrivatizer, float64, error) {
	m, eps, err := mechanismSpec{Name: name, Preset: preset}.build(a, false)
	if err != nil {
		return nil, 0, err
	}
	p, err := core.NewTextPrivatizer(m, a, core.TextOptions{})
	return p, eps, err
}
