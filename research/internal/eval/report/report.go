// Package report turns the evaluation's results files into figures (PNG
// and SVG, package eval/plot) and a generated RESULTS.md of tables. It
// computes nothing new: every number it shows is a record of the results
// files, a mean with its 95% confidence interval (Student's t over the
// runs), or — for the best on-device configuration's comparison — a
// linear interpolation of those along the N_w axis and a paired
// difference over runs, so the figures can always be regenerated from the
// committed results. It does not judge significance beyond those
// intervals: the CI-separated verdict is conservative, the one on means
// is not.
package report

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/wordveil/wordveil/research/internal/eval/study"
	"gonum.org/v1/gonum/stat/distuv"
)

// Cell is one mechanism × grid point, aggregated over runs.
type Cell struct {
	Mechanism, Family string
	EpsIndex          int
	Epsilon           float64
	Matched           float64 // NaN when not matched
	Runs              int
	Mean, Lo, Hi      float64 // accuracy mean and 95% CI
	NW, SW            float64 // NaN when not measured
	Draws, PoolK      int
	Seconds           float64 // summed over runs
	// ByRun is the accuracy of each run (by run index: runs share the
	// classifier's seed across mechanisms, so they pair).
	ByRun map[int]float64
	// Fingerprint is the configuration the cell's records were made with.
	Fingerprint string
}

// Study is the IMDB study's aggregated results.
type Study struct {
	// Fingerprint is the last record's common configuration (each
	// mechanism's cells carry their own spec fingerprint: see
	// study.Current).
	Fingerprint string
	Baseline    Cell
	Cells       map[string][]Cell // mechanism → cells by grid index
	Order       []string          // mechanisms in the order first seen
	Ratios      map[string]study.Record
	CellSeconds float64 // total compute in cells
	// Extras are other configurations' results shown beside this one.
	Extras []LabeledStudy
}

// LabeledStudy is an extra results file with its label.
type LabeledStudy struct {
	Label, Path string
	*Study
}

// Load reads and aggregates a results file: the records study.Current
// selects (the last configuration, and each mechanism's last spec in it).
// A cell's N_w and S_w come from a deniability record of the same
// fingerprint as its accuracy records (else they are NaN: an N_w measured
// at another configuration's ε would misplace the cell).
func Load(path string) (*Study, error) {
	recs, err := study.ReadRecords(path)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no results in %s (run 'wordveil-research eval imdb')", path)
	}
	fp := recs[len(recs)-1].Config
	if fp == "" { // a file written before configurations were recorded
		fp = recs[len(recs)-1].Fingerprint
	}
	s := &Study{Fingerprint: fp, Cells: map[string][]Cell{}, Ratios: map[string]study.Record{}}
	type key struct {
		m string
		e int
	}
	acc := map[key][]float64{}
	byRun := map[key]map[int]float64{}
	first := map[key]study.Record{}
	den := map[key]study.Record{}
	var base []float64
	for _, r := range study.Current(recs) {
		k := key{r.Mechanism, r.EpsIndex}
		switch r.Kind {
		case "ratio":
			s.Ratios[r.Metric] = r
		case "baseline":
			base = append(base, r.Accuracy)
			s.CellSeconds += r.Seconds
		case "deniability":
			den[k] = r
		case "accuracy":
			if _, ok := first[k]; !ok {
				first[k] = r
				if _, seen := s.Cells[r.Mechanism]; !seen {
					s.Order = append(s.Order, r.Mechanism)
					s.Cells[r.Mechanism] = nil
				}
			}
			acc[k] = append(acc[k], r.Accuracy)
			if byRun[k] == nil {
				byRun[k] = map[int]float64{}
			}
			byRun[k][r.Run] = r.Accuracy
			f := first[k]
			f.Seconds += r.Seconds
			first[k] = f
			s.CellSeconds += r.Seconds
		}
	}
	s.Baseline = Cell{Mechanism: "none"}
	s.Baseline.Runs = len(base)
	s.Baseline.Mean, s.Baseline.Lo, s.Baseline.Hi = MeanCI(base)
	for k, r := range first {
		c := Cell{Mechanism: r.Mechanism, Family: r.Family, EpsIndex: r.EpsIndex, Epsilon: r.Epsilon,
			Matched: math.NaN(), Runs: len(acc[k]), Draws: r.Draws, PoolK: r.PoolK, Seconds: r.Seconds, NW: math.NaN(), SW: math.NaN(),
			ByRun: byRun[k], Fingerprint: r.Fingerprint}
		if r.Matched != nil {
			c.Matched = *r.Matched
		}
		c.Mean, c.Lo, c.Hi = MeanCI(acc[k])
		if d, ok := den[k]; ok && d.Fingerprint == r.Fingerprint {
			c.NW, c.SW = d.NW, d.SW
		}
		s.Cells[r.Mechanism] = append(s.Cells[r.Mechanism], c)
	}
	for m := range s.Cells {
		sort.Slice(s.Cells[m], func(i, j int) bool { return s.Cells[m][i].EpsIndex < s.Cells[m][j].EpsIndex })
	}
	return s, nil
}

// MeanCI returns the mean and the two-sided 95% confidence interval of
// the mean (Student's t with n−1 degrees of freedom); the interval is the
// mean itself for fewer than two values, NaN for none.
func MeanCI(xs []float64) (mean, lo, hi float64) {
	n := float64(len(xs))
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if n < 2 {
		return mean, mean, mean
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
	h := t * sd / math.Sqrt(n)
	return mean, mean - h, mean + h
}

// LoadEmpirical reads the empirical results file; a missing file gives no
// records.
func LoadEmpirical(path string) ([]study.EmpiricalRecord, error) { return study.ReadEmpirical(path) }

// Extra is an additional results file (a run with another configuration,
// e.g. the paper's full TR1 at one ε) shown beside the main study.
type Extra struct {
	Label, Path string
}

// Write renders every figure and RESULTS.md into dir and returns the files
// written. Extras whose file does not exist are skipped.
func Write(results, empirical, dir string, extras []Extra) ([]string, error) {
	s, err := Load(results)
	if err != nil {
		return nil, err
	}
	for _, e := range extras {
		if _, err := os.Stat(e.Path); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		x, err := Load(e.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Path, err)
		}
		s.Extras = append(s.Extras, LabeledStudy{Label: e.Label, Path: e.Path, Study: x})
	}
	emp, err := LoadEmpirical(empirical)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", empirical, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	files, err := figures(s, emp, dir)
	if err != nil {
		return nil, err
	}
	md := filepath.Join(dir, "RESULTS.md")
	if err := os.WriteFile(md, []byte(tables(s, emp)), 0o644); err != nil {
		return nil, err
	}
	return append(files, md), nil
}
