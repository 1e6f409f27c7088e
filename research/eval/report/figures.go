package report

import (
	"math"
	"path/filepath"

	"github.com/wordveil/wordveil/research/eval/plot"
	"github.com/wordveil/wordveil/research/eval/study"
	"gonum.org/v1/plot/vg"
)

// Display names of the study's mechanisms.
var names = map[string]string{
	"tem":         "TEM (Euclidean)",
	"tem-pool":    "TEM, sample pool",
	"madlib":      "Madlib",
	"mahalanobis": "Mahalanobis",
	"vickrey":     "Vickrey (t=0.75)",
	"trlaplace":   "TrLaplace",
	"brr-avg":     "BRR (P_avg-matched)",
	"brr-max":     "BRR (P_max-matched)",
	"1dg-1":       "1-DG, 1 list",
	"1dg-2":       "1-DG, 2 lists",
	"1dt-1":       "1-DT, 1 list",
	"1dt-2":       "1-DT, 2 lists",
}

func display(m string) string {
	if n, ok := names[m]; ok {
		return n
	}
	return m
}

// series returns mechanism m's accuracy curve against x(cell).
func (s *Study) series(m string, x func(Cell) float64) (plot.Series, bool) {
	cells := s.Cells[m]
	if len(cells) == 0 {
		return plot.Series{}, false
	}
	sr := plot.Series{Name: display(m)}
	for _, c := range cells {
		xv := x(c)
		if math.IsNaN(xv) || math.IsNaN(c.Mean) {
			continue
		}
		sr.X = append(sr.X, xv)
		sr.Y = append(sr.Y, c.Mean)
		sr.Lo = append(sr.Lo, c.Lo)
		sr.Hi = append(sr.Hi, c.Hi)
	}
	return sr, len(sr.X) > 0
}

func (s *Study) collect(ms []string, x func(Cell) float64) []plot.Series {
	var out []plot.Series
	for _, m := range ms {
		if sr, ok := s.series(m, x); ok {
			out = append(out, sr)
		}
	}
	return out
}

func matched(c Cell) float64 { return c.Matched }
func ownEps(c Cell) float64  { return c.Epsilon }

func (s *Study) refs() []plot.Ref {
	r := []plot.Ref{{Label: "chance (50%)", Y: 0.5}}
	if !math.IsNaN(s.Baseline.Mean) {
		r = append([]plot.Ref{{Label: "non-private baseline", Y: s.Baseline.Mean}}, r...)
	}
	return r
}

// Figure is one generated figure: its file base name (without extension),
// and what it shows.
type Figure struct {
	Base, Title string
}

// Figures lists the figures Write renders, in report order.
var Figures = []Figure{
	{"fig-tem-madlib", "TEM vs Madlib on IMDB"},
	{"fig-brr-madlib", "BRR vs Madlib at matched privacy"},
	{"fig-float", "Float-vector mechanisms"},
	{"fig-diffractor", "1-Diffractor"},
	{"fig-all", "All metric-DP mechanisms on the P_avg-matched Euclidean axis"},
	{"fig-plane", "Accuracy against plausible deniability N_w"},
	{"fig-pool", "The sample pool's effect (TEM both ways)"},
	{"fig-trlaplace", "TrLaplace"},
	{"fig-empirical", "Empirical privacy vs utility loss (Vickrey §3)"},
}

func figures(s *Study, emp []study.EmpiricalRecord, dir string) ([]string, error) {
	var files []string
	add := func(base string, err error) error {
		if err == nil {
			files = append(files, filepath.Join(dir, base+".png"), filepath.Join(dir, base+".svg"))
		}
		return err
	}
	p := func(base string) string { return filepath.Join(dir, base) }
	acc := "test accuracy on TE1"
	wide := plot.Options{LogX: true, HLines: s.refs(), YMin: 0.45, YMax: 0.92, LegendOutside: true}

	o := wide
	o.Points = []plot.Ref{{Label: "TEM paper: 75%", X: 2, Y: 0.75}, {Label: "Madlib (TEM paper): 52%", X: 2, Y: 0.52}}
	sr := s.collect([]string{"tem", "madlib"}, matched)
	for _, x := range s.Extras {
		for _, m := range []string{"tem", "madlib"} {
			if e, ok := x.series(m, matched); ok {
				e.Name += ", " + x.Label
				sr = append(sr, e)
			}
		}
	}
	if len(sr) > 0 {
		if err := add("fig-tem-madlib", plot.Lines(p("fig-tem-madlib"), "TEM vs Madlib (IMDB, 100-d GloVe, N = 50k)", "Euclidean ε", acc, sr, o)); err != nil {
			return nil, err
		}
	}
	if sr := s.collect([]string{"madlib", "brr-avg", "brr-max"}, matched); len(sr) > 0 {
		if err := add("fig-brr-madlib", plot.Lines(p("fig-brr-madlib"), "BRR vs Madlib at matched privacy", "Madlib ε (BRR's ε matched by P_avg or P_max)", acc, sr, wide)); err != nil {
			return nil, err
		}
	}
	if sr := s.collect([]string{"tem", "madlib", "mahalanobis", "vickrey"}, matched); len(sr) > 0 {
		if err := add("fig-float", plot.Lines(p("fig-float"), "Mechanisms over the float vectors", "ε", acc, sr, wide)); err != nil {
			return nil, err
		}
	}
	if sr := s.collect([]string{"1dg-1", "1dg-2", "1dt-1", "1dt-2"}, ownEps); len(sr) > 0 {
		if err := add("fig-diffractor", plot.Lines(p("fig-diffractor"), "1-Diffractor (lists over the binary codes)", "ε per list position", acc, sr, wide)); err != nil {
			return nil, err
		}
	}
	all := []string{"tem", "madlib", "mahalanobis", "vickrey", "brr-avg", "1dg-1", "1dg-2", "1dt-1", "1dt-2"}
	if sr := s.collect(all, matched); len(sr) > 0 {
		o := wide
		o.Width = 22 * vg.Centimeter // four decades of ε
		if err := add("fig-all", plot.Lines(p("fig-all"), "All metric-DP mechanisms, ε matched by P_avg", "Euclidean ε with the same ε·P_avg", acc, sr, o)); err != nil {
			return nil, err
		}
	}
	var plane []plot.Series
	for _, m := range s.Order {
		sr := plot.Series{Name: display(m)}
		for _, c := range s.Cells[m] {
			if !math.IsNaN(c.NW) && !math.IsNaN(c.Mean) {
				sr.X, sr.Y = append(sr.X, c.NW), append(sr.Y, c.Mean)
				sr.Lo, sr.Hi = append(sr.Lo, c.Lo), append(sr.Hi, c.Hi)
			}
		}
		if len(sr.X) > 0 {
			plane = append(plane, sr)
		}
	}
	if len(plane) > 0 {
		o := plot.Options{HLines: s.refs(), YMin: 0.45, YMax: 0.92, LegendOutside: true}
		if err := add("fig-plane", plot.Scatter(p("fig-plane"), "The empirical privacy–utility plane", "N_w = Pr[M(w) = w] (plausible deniability; lower is more private)", acc, plane, o)); err != nil {
			return nil, err
		}
	}
	if sr := s.collect([]string{"tem", "tem-pool"}, matched); len(sr) == 2 {
		if err := add("fig-pool", plot.Lines(p("fig-pool"), "TEM with fresh draws for every token vs the sample pool", "Euclidean ε", acc, sr, wide)); err != nil {
			return nil, err
		}
	}
	if sr := s.collect([]string{"trlaplace"}, ownEps); len(sr) > 0 {
		if err := add("fig-trlaplace", plot.Lines(p("fig-trlaplace"), "TrLaplace (claimed word-level (ε, δ)-DP; see FLOAT_MECHANISMS.md)", "ε", acc, sr, wide)); err != nil {
			return nil, err
		}
	}
	if sr := empiricalSeries(emp); len(sr) > 0 {
		o := plot.Options{LegendOutside: true}
		if err := add("fig-empirical", plot.Lines(p("fig-empirical"), "Empirical privacy vs utility loss (AFINN words of IMDB)", "utility loss L_M (sentiment flips)", "adversary's inference error E_M", sr, o)); err != nil {
			return nil, err
		}
	}
	return files, nil
}

func empiricalSeries(emp []study.EmpiricalRecord) []plot.Series {
	by := map[string]*plot.Series{}
	var order []string
	for _, r := range emp {
		if r.Kind != "point" {
			continue
		}
		sr, ok := by[r.Mechanism]
		if !ok {
			sr = &plot.Series{Name: display(r.Mechanism)}
			by[r.Mechanism] = sr
			order = append(order, r.Mechanism)
		}
		sr.X = append(sr.X, r.UtilityLoss)
		sr.Y = append(sr.Y, r.InferenceError)
	}
	var out []plot.Series
	for _, m := range order {
		out = append(out, *by[m])
	}
	return out
}
