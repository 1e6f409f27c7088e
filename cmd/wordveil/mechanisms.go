package main

import (
	"errors"
	"fmt"
	"math"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/wva"
)

// mechanismSpec is how the CLI names a mechanism and its privacy.
type mechanismSpec struct {
	Name    string  // mechanism.NameBRR, ...
	Epsilon float64 // > 0, or 0 to use Preset
	Preset  string  // mechanism.LevelBalanced, ...
}

// build returns the mechanism and its ε. A refused ε (invalid, or so
// large the output is almost surely the input, unless allowSaturated) and
// an unknown name are usage errors.
// buildOptions are the CLI's switches that relax a default.
type buildOptions struct {
	allowSaturated bool // -allow-saturated: accept ε above the saturation bound
	allOutputs     bool // -all-outputs: also release the asset's excluded words
}

func (s mechanismSpec) build(a *wva.Asset, o buildOptions) (mechanism.Mechanism, float64, error) {
	eps := s.Epsilon
	if eps == 0 {
		var err error
		if eps, err = mechanism.Preset(a, s.Name, s.Preset); err != nil {
			return nil, 0, fmt.Errorf("%w: -preset %s: %v", errUsage, s.Preset, err)
		}
	} else if !(eps > 0) || math.IsInf(eps, 0) {
		return nil, 0, fmt.Errorf("%w: -epsilon %v: must be a finite number > 0", errUsage, eps)
	}
	opts := mechanism.Options{AllowSaturated: o.allowSaturated}
	if !o.allOutputs {
		var err error
		if opts.Outputs, err = mechanism.DefaultOutputs(a); err != nil {
			return nil, 0, err
		}
	}
	m, err := mechanism.New(s.Name, a, eps, opts)
	if errors.Is(err, mechanism.ErrUnknownMechanism) || errors.Is(err, mechanism.ErrEpsilonSaturated) || errors.Is(err, mechanism.ErrInvalidEpsilon) {
		return nil, 0, fmt.Errorf("%w: %v", errUsage, err)
	}
	if err != nil {
		return nil, 0, err
	}
	return m, eps, nil
}

// presetMechanisms are the on-device mechanisms that have presets, in the
// order the CLI shows them.
var presetMechanisms = []string{mechanism.NameBRR, mechanism.NameTEMHamming, mechanism.Name1DG, mechanism.Name1DT}

// presetPrivatizer builds the named mechanism at a preset over a, wrapped in
// a text privatizer with default options, and returns it with its ε.
func presetPrivatizer(a *wva.Asset, name, preset string) (*privatize.Privatizer, float64, error) {
	m, eps, err := mechanismSpec{Name: name, Preset: preset}.build(a, buildOptions{})
	if err != nil {
		return nil, 0, err
	}
	p, err := privatize.New(m, a, privatize.Options{})
	return p, eps, err
}
