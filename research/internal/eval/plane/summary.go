package plane

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/wordveil/wordveil/internal/wva"
)

// Estimate is one protocol's accuracy in a cell: the runs' mean and its
// 95% interval, Student's t over the runs (the package doc says why);
// Half is the interval's half-width, NaN with fewer than two runs.
type Estimate struct {
	Mean, Lo, Hi, Half float64
	Runs               int
}

// estimate is the mean of xs with its t interval.
func estimate(xs []float64) Estimate {
	e := Estimate{Runs: len(xs), Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Half: math.NaN()}
	if len(xs) == 0 {
		return e
	}
	n := float64(len(xs))
	s := 0.0
	for _, x := range xs {
		s += x
	}
	e.Mean = s / n
	if len(xs) < 2 {
		return e
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - e.Mean) * (x - e.Mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
	e.Half = t * sd / math.Sqrt(n)
	e.Lo, e.Hi = e.Mean-e.Half, e.Mean+e.Half
	return e
}

// Recovery is the one-word Bayes attacker's top-1 recovery on held-out
// text at a level, as the asset records it: Point with the interval
// [Lo, Hi]. Kind is "exact" (the law in closed form: Point is the
// measured rate, the interval its 95% confidence interval), "bounded" (a
// two-sided bound was measured, Bound: Point is the interval's midpoint),
// "lower" (only a lower bound: Point is it, Hi is unknown, +Inf) or ""
// (nothing recorded: Point NaN).
type Recovery struct {
	Point, Lo, Hi float64
	Kind          string
}

// Bound is a measured two-sided bound on the best one-word attacker's
// top-1 against a mechanism at one ε on one asset (docs/eval/brr-bound.jsonl,
// eval brrbound), each side at confidence 1 − δ.
type Bound struct {
	Asset, Mechanism, Level string // Asset: hex SHA-256
	Epsilon, Lo, Hi         float64
}

// RecoveryOf is cell c's recovery on asset a: the asset's held-out facts,
// made two-sided by a bound measured on exactly this asset and ε where the
// facts give a lower bound only, its lower end the larger of the two lower
// bounds, as wordveil stats shows it.
func RecoveryOf(a *wva.Asset, c Cell, bounds []Bound) Recovery {
	none := Recovery{Point: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	p := a.Header.Presets
	if p == nil || c.Mech == Baseline {
		return none
	}
	f, ok := p.Measured[c.Mech][c.Level]
	if !ok || f.HeldOut == nil {
		return none
	}
	t := f.HeldOut.Top1
	if f.HeldOut.Bound != "lower" {
		return Recovery{Point: t.Rate, Lo: t.Lo, Hi: t.Hi, Kind: "exact"}
	}
	id := AssetID(a)
	for _, b := range bounds {
		if b.Asset == id && b.Mechanism == c.Mech && b.Level == c.Level && b.Epsilon == c.Eps {
			lo := max(b.Lo, t.Lo)
			return Recovery{Point: (lo + b.Hi) / 2, Lo: lo, Hi: b.Hi, Kind: "bounded"}
		}
	}
	return Recovery{Point: t.Rate, Lo: t.Lo, Hi: math.Inf(1), Kind: "lower"}
}

// CellResult is a cell's runs, summarized.
type CellResult struct {
	Cell
	Clean, Privatized Estimate
	Recovery          Recovery
	// TrainReviews and TestReviews are the runs' (every run of a cell has
	// the same; see Summarize),
	// Seconds is their time in all.
	// Seeds the classifiers per run.
	TrainReviews, TestReviews, Seeds int
	Seconds                          float64
}

// Summarize returns every cell of a's presets (the baseline first, then
// Mechanisms × levels) with the runs recs hold for it: those of the
// configuration of recs' last record, run on asset a at the cell's
// current ε (a record of another asset or ε is not the cell's), one per
// run, all with the same number of test reviews: the smallest the file
// holds for the cell. A mechanism is run again with smaller test slices
// (eval plane -mechanisms M -test T -max-runs R) when one of its cells
// stayed wider than the target at the larger slices' run limit, the test
// file used up; its cells' runs at the smaller slices (and the
// baseline's, which every run includes) then replace the others whole,
// never mixed with them, so each cell's runs are identically distributed,
// and the choice is by slice size, never by which interval is narrower.
// A cell without runs has Runs 0 in both estimates.
func Summarize(recs []Record, a *wva.Asset, bounds []Bound) ([]CellResult, string, error) {
	cells, err := Cells(a, Mechanisms)
	if err != nil {
		return nil, "", err
	}
	config := ""
	if len(recs) > 0 {
		config = recs[len(recs)-1].Config
	}
	id := AssetID(a)
	out := make([]CellResult, len(cells))
	for i, c := range cells {
		r := CellResult{Cell: c, Recovery: RecoveryOf(a, c, bounds)}
		mine := func(rec Record) bool {
			return rec.Kind == "plane" && rec.Config == config && rec.Asset == id && rec.Mechanism == c.Mech &&
				rec.Level == c.Level && rec.Epsilon == c.Eps
		}
		test := 0
		for _, rec := range recs {
			if mine(rec) && (test == 0 || rec.TestReviews < test) {
				test = rec.TestReviews
			}
		}
		var clean, priv []float64
		seen := map[int]bool{}
		for _, rec := range recs {
			if !mine(rec) || rec.TestReviews != test || seen[rec.Run] {
				continue
			}
			seen[rec.Run] = true
			clean = append(clean, rec.Clean)
			priv = append(priv, rec.Privatized)
			r.TrainReviews, r.TestReviews, r.Seeds = rec.TrainReviews, rec.TestReviews, rec.Seeds
			r.Seconds += rec.Seconds
		}
		r.Clean, r.Privatized = estimate(clean), estimate(priv)
		out[i] = r
	}
	return out, config, nil
}
