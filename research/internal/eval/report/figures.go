package report

import (
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wordveil/wordveil/research/internal/eval/plot"
	"github.com/wordveil/wordveil/research/internal/eval/study"
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
	// The mechanisms added with the search for the best configuration.
	"tem-hamming":   "TEM (Hamming)",
	"santext":       "SanText (Hamming)",
	"custext":       "CusText (sets of 20)",
	"syntf":         "SynTF",
	"truncgumbel":   "Truncated Gumbel (claim fails)",
	"santext-float": "SanText (Euclidean)",
}

func display(m string) string {
	if n, ok := names[m]; ok {
		return n
	}
	if n, ok := candidateLabel(m); ok {
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
	{"fig-plane-float", "The plane's float-vector mechanisms, when the plane is too crowded"},
	{"fig-candidates", "The candidate on-device configurations on the plane"},
	{"fig-candidates-outputs", "The candidates with restricted outputs, when there are too many for one figure"},
	{"fig-plane-inference", "Accuracy against the Vickrey paper's inference error"},
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
	// The plane: every mechanism but the candidates, which get their own
	// figure (there are too many to tell apart here); the best candidate
	// of each level is marked "best: …". When the mechanisms are more than
	// the plot tells apart, the on-device ones stay on fig-plane and the
	// others move to fig-plane-float, both with the best candidates.
	groups, cands := s.planeGroups()
	planeTitles := []struct{ base, title string }{
		{"fig-plane", "The empirical privacy–utility plane"},
		{"fig-plane-float", "The empirical privacy–utility plane: float-vector and word-level DP mechanisms"},
	}
	if len(groups) > 1 {
		planeTitles[0].title += ": on-device mechanisms"
	}
	for i, g := range groups {
		o := plot.Options{HLines: s.refs(), YMin: 0.45, YMax: 0.92, LegendOutside: true}
		base := planeTitles[i].base
		if err := add(base, plot.Scatter(p(base), planeTitles[i].title, "N_w = Pr[M(w) = w] (plausible deniability; lower is more private)", acc, g, o)); err != nil {
			return nil, err
		}
	}
	for i, g := range cands {
		o := plot.Options{HLines: s.refs(), YMin: 0.45, YMax: 0.92, LegendOutside: true, Width: 22 * vg.Centimeter}
		base, title := "fig-candidates", "Candidate on-device configurations, calibrated to N_w = 0.1, 0.25, 0.5"
		if i > 0 {
			base, title = "fig-candidates-outputs", "Candidates with restricted output vocabularies"
		}
		if err := add(base, plot.Scatter(p(base), title, "N_w = Pr[M(w) = w] (plausible deniability; lower is more private)", acc, g, o)); err != nil {
			return nil, err
		}
	}
	if sr := s.inferencePlane(emp); len(sr) > 0 {
		o := plot.Options{HLines: s.refs(), YMin: 0.45, YMax: 0.92, LegendOutside: true}
		if err := add("fig-plane-inference", plot.Scatter(p("fig-plane-inference"), "Accuracy against the adversary's inference error (Vickrey §3)", "E_M: inference error on the AFINN words (higher is more private)", acc, sr, o)); err != nil {
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
	var by seriesByMechanism
	for _, r := range emp {
		if r.Kind != "point" {
			continue
		}
		sr := by.get(r.Mechanism)
		sr.X = append(sr.X, r.UtilityLoss)
		sr.Y = append(sr.Y, r.InferenceError)
	}
	return by.list()
}

// seriesByMechanism collects one plot series per mechanism, in the order
// the mechanisms first appear.
type seriesByMechanism struct {
	by    map[string]*plot.Series
	order []string
}

// get returns mechanism's series, starting it if it is new.
func (s *seriesByMechanism) get(mechanism string) *plot.Series {
	if sr, ok := s.by[mechanism]; ok {
		return sr
	}
	if s.by == nil {
		s.by = map[string]*plot.Series{}
	}
	sr := &plot.Series{Name: display(mechanism)}
	s.by[mechanism] = sr
	s.order = append(s.order, mechanism)
	return sr
}

// list returns the series in order of first appearance.
func (s *seriesByMechanism) list() []plot.Series {
	var out []plot.Series
	for _, m := range s.order {
		out = append(out, *s.by[m])
	}
	return out
}

// planeStyles is how many series a figure of package plot tells apart:
// its 14 colours, with markers that repeat along with them.
const planeStyles = 14

// onDevice are the families of the SDK's mechanisms.
var onDevice = map[string]bool{"hamming": true, "list": true, "lists": true, "custext": true}

// planeGroups returns the plane's series (every mechanism but the
// candidates, then the best candidates' markers) as one group, or as two
// (on-device families, then the others, each with the markers) when one
// would hold more than planeStyles series. cands are the candidates'
// series likewise: one group, or two (all outputs allowed, then restricted
// outputs) when there are more than planeStyles.
func (s *Study) planeGroups() (groups, cands [][]plot.Series) {
	var all, dev, other, cAll, cPlain, cRestricted []plot.Series
	for _, m := range s.Order {
		sr, ok := planeSeries(s.Cells[m], display(m))
		if !ok {
			continue
		}
		switch c, isCand := candidateOf(m); {
		case isCand:
			sr.Name = c.Label // the figure says they are candidates
			cAll = append(cAll, sr)
			if c.Default || c.Top > 0 {
				cRestricted = append(cRestricted, sr)
			} else {
				cPlain = append(cPlain, sr)
			}
		case onDevice[s.Cells[m][0].Family]:
			dev = append(dev, sr)
			all = append(all, sr)
		default:
			other = append(other, sr)
			all = append(all, sr)
		}
	}
	switch {
	case len(cAll) <= planeStyles || len(cPlain) == 0 || len(cRestricted) == 0:
		if len(cAll) > 0 {
			cands = [][]plot.Series{cAll}
		}
	default:
		cands = [][]plot.Series{cPlain, cRestricted}
	}
	best := s.bestSeries()
	if len(all)+len(best) <= planeStyles || len(dev) == 0 || len(other) == 0 {
		if len(all)+len(best) > 0 {
			groups = append(groups, append(all, best...))
		}
		return groups, cands
	}
	return [][]plot.Series{append(dev, best...), append(other, best...)}, cands
}

// planeSeries is cells' accuracy against N_w (the cells measuring both).
func planeSeries(cells []Cell, name string) (plot.Series, bool) {
	sr := plot.Series{Name: name}
	for _, c := range cells {
		if !math.IsNaN(c.NW) && !math.IsNaN(c.Mean) {
			sr.X, sr.Y = append(sr.X, c.NW), append(sr.Y, c.Mean)
			sr.Lo, sr.Hi = append(sr.Lo, c.Lo), append(sr.Hi, c.Hi)
		}
	}
	return sr, len(sr.X) > 0
}

// bestSeries marks each level's best candidate: one series per distinct
// winner, named "best: …", holding the levels it wins.
func (s *Study) bestSeries() []plot.Series {
	var out []plot.Series
	index := map[string]int{}
	for _, t := range study.CandidateTargets {
		l := s.bestAt(t)
		if l.Cand == nil {
			continue
		}
		m := l.Cand.Mechanism
		i, ok := index[m]
		if !ok {
			name := display(m)
			if n, ok := strings.CutPrefix(name, "candidate: "); ok {
				name = n
			}
			i = len(out)
			index[m] = i
			out = append(out, plot.Series{Name: "best: " + name})
		}
		c := l.Cand
		out[i].X, out[i].Y = append(out[i].X, c.NW), append(out[i].Y, c.Mean)
		out[i].Lo, out[i].Hi = append(out[i].Lo, c.Lo), append(out[i].Hi, c.Hi)
	}
	return out
}

// newMechanisms are the mechanisms whose presence in the empirical
// records calls for the extended plane against the inference error.
var newMechanisms = []string{"tem-hamming", "santext", "custext", "syntf", "truncgumbel", "santext-float"}

// inferencePlane joins the empirical records (the Vickrey paper's
// inference error E_M at a mechanism and ε) with the study's accuracy at
// the same mechanism and ε: accuracy against E_M, one series per
// mechanism. It is drawn only when the empirical records include one of
// newMechanisms (before that, fig-empirical says everything it could).
func (s *Study) inferencePlane(emp []study.EmpiricalRecord) []plot.Series {
	hasNew := false
	for _, r := range emp {
		hasNew = hasNew || (r.Kind == "point" && slices.Contains(newMechanisms, r.Mechanism))
	}
	if !hasNew {
		return nil
	}
	var by seriesByMechanism
	for _, r := range emp {
		if r.Kind != "point" || math.IsNaN(r.InferenceError) {
			continue
		}
		for _, c := range s.Cells[r.Mechanism] {
			if math.IsNaN(c.Mean) || math.Abs(c.Epsilon-r.Epsilon) > 1e-9*math.Max(1, math.Abs(r.Epsilon)) {
				continue
			}
			sr := by.get(r.Mechanism)
			sr.X, sr.Y = append(sr.X, r.InferenceError), append(sr.Y, c.Mean)
			sr.Lo, sr.Hi = append(sr.Lo, c.Lo), append(sr.Hi, c.Hi)
			break
		}
	}
	return by.list()
}
