package levelfacts

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/deniability"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
)

// Levels are the named levels, strongest first.
var Levels = []string{mechanism.LevelStrong, mechanism.LevelBalanced, mechanism.LevelLight}

// Sample is the plausible-deniability protocol of the table: Words words
// drawn uniformly from the vocabulary (seeded), Draws draws each.
type Sample struct{ Words, Draws int }

// DefaultSample is the protocol of docs/MECHANISMS.md: 100 words × 100
// draws.
var DefaultSample = Sample{Words: 100, Draws: deniability.DefaultDraws}

// Row is one mechanism at one level (or at an ε given directly, Level "").
type Row struct {
	Mechanism string
	Metric    string
	Level     string
	Epsilon   float64
	// Cost is ε·P_avg, the metric loss per fresh word; CostKnown is
	// false where P_avg is unknown (mechanism.MeanDistance).
	Cost      float64
	CostKnown bool
	// N and S are the mean N_w and S_w of the uniform sample.
	N, S float64
	// Facts are what the builder recorded for this mechanism and level;
	// nil when the asset has none (or the row is at a given ε).
	Facts *wva.LevelFacts
}

// ErrNoLevel is wrapped by Rows when a mechanism has no preset at a
// level (unknown names included).
var ErrNoLevel = errors.New("levelfacts: no such preset")

// order is the table's: the keyboard default first, then by family.
var order = []string{mechanism.NameBRR, mechanism.NameTEMHamming, mechanism.NameTEM, mechanism.Name1DG, mechanism.Name1DT, mechanism.NameSanText, mechanism.NameCusText}

// Mechanisms returns the mechanisms with at least one preset on a: BRR,
// TEM on codes and on lists, 1-DG, 1-DT, SanText, CusText.
func Mechanisms(a *wva.Asset) []string {
	var out []string
	for _, name := range order {
		for _, l := range Levels {
			if _, err := mechanism.Preset(a, name, l); err == nil {
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// Rows measures the table for the given mechanisms (nil: Mechanisms(a))
// at the given levels (nil: every level), or, when eps > 0, at that ε for
// each mechanism (no recorded facts). A level a mechanism cannot reach is
// skipped when levels is nil and an ErrNoLevel error when asked for; a
// mechanism named in mechanisms that has no level at all is an ErrNoLevel
// error too. step, if not nil, is told after each mechanism and level
// measured or skipped how many of the total are done (progress).
func Rows(a *wva.Asset, mechanisms, levels []string, eps float64, s Sample, step func(done, total int)) ([]Row, error) {
	if a == nil {
		return nil, fmt.Errorf("levelfacts: %w", mechanism.ErrEmptyVocabulary)
	}
	if s.Words < 1 || s.Draws < 1 {
		return nil, fmt.Errorf("levelfacts: sample of %d words × %d draws", s.Words, s.Draws)
	}
	if mechanisms == nil {
		mechanisms = Mechanisms(a)
	}
	asked := levels != nil
	if levels == nil {
		levels = Levels
	}
	outputs, err := mechanism.DefaultOutputs(a)
	if err != nil {
		return nil, err
	}
	sample := rand.New(rand.NewPCG(2026, 5)).Perm(a.Len())[:min(s.Words, a.Len())]
	var rows []Row
	add := func(name, level string, e float64) error {
		m, err := mechanism.New(name, a, e, mechanism.Options{Outputs: outputs})
		if err != nil {
			return err
		}
		// One stream per row, so a row's figures do not depend on which
		// rows were asked for.
		src := seeded.Key(rowSeed(name, level))
		d, err := deniability.Estimate(m, sample, s.Draws, src)
		if err != nil {
			return err
		}
		r := Row{Mechanism: name, Metric: m.Metric(), Level: level, Epsilon: e, N: d.MeanN, S: d.MeanS}
		if pavg, ok := mechanism.MeanDistance(m); ok {
			r.Cost, r.CostKnown = e*pavg, true
		}
		if p := a.Header.Presets; level != "" && p != nil {
			if f, ok := p.Measured[name][level]; ok {
				r.Facts = &f
			}
		}
		rows = append(rows, r)
		return nil
	}
	named := mechanisms != nil
	total, done := len(mechanisms)*len(levels), 0
	if eps > 0 {
		total = len(mechanisms)
	}
	tick := func() {
		if done++; step != nil {
			step(done, total)
		}
	}
	for _, name := range mechanisms {
		before := len(rows)
		if eps > 0 {
			if err := add(name, "", eps); err != nil {
				return nil, err
			}
			tick()
			continue
		}
		for _, l := range levels {
			e, err := mechanism.Preset(a, name, l)
			if err != nil {
				if asked || errors.Is(err, mechanism.ErrUnknownMechanism) {
					return nil, fmt.Errorf("%w: %s at %q: %v", ErrNoLevel, name, l, err)
				}
				tick()
				continue
			}
			if err := add(name, l, e); err != nil {
				return nil, err
			}
			tick()
		}
		if named && len(rows) == before {
			// A mechanism asked for by name with no level on this
			// asset (TEM on its lists) is an error, not an empty table.
			return nil, fmt.Errorf("%w: %s has no level on asset %q (give ε)", ErrNoLevel, name, a.Header.Name)
		}
	}
	return rows, nil
}

// rowSeed keys a row's stream by its mechanism and level.
func rowSeed(name, level string) [32]byte {
	var k [32]byte
	copy(k[:], "levelfacts/"+name+"/"+level)
	return k
}
