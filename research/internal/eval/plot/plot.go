// Package plot draws the evaluation report's figures with gonum.org/v1/plot:
// accuracy-vs-ε line charts with error bars and reference lines, and
// scatter plots. Every figure is written twice, as base.png and base.svg,
// from one drawing, so the two always agree.
//
// Guarantees: inputs are validated before anything is written (equal slice
// lengths, at least one series with a point, finite values, positive x on a
// log axis, Lo ≤ Y ≤ Hi, XLo ≤ X ≤ XHi); series i always gets the same
// colour and marker (14 distinct colours, cycling 7 marker shapes) unless it
// asks for another series' look (Series.Look), so a mechanism keeps its
// look across figures when callers keep its index; the PNG is
// Width × Height at DPI dots per inch.
package plot

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Series is one named curve or point set. Lo and Hi are optional (both nil,
// or both as long as X): the lower and upper ends of an error bar or
// confidence interval at each point, in data units (not offsets); XLo and
// XHi the same horizontally. Look, when > 0, draws the series with the
// colour and marker of series Look−1 instead of its own (two series of one
// subject, told apart by Dashed: a dashed line).
type Series struct {
	Name     string
	X, Y     []float64
	Lo, Hi   []float64
	XLo, XHi []float64
	Look     int
	Dashed   bool
}

// Ref is a reference: for Options.HLines a horizontal line at Y (X unused)
// named Label in the legend, e.g. {Label: "non-private baseline", Y: 0.876};
// for Options.Points a marked point at (X, Y) annotated with Label, e.g. a
// paper's headline {Label: "TEM paper: 75%", X: 2, Y: 0.75}.
type Ref struct {
	Label string
	X, Y  float64
}

// Options adjusts a figure; the zero value is a sensible default.
type Options struct {
	LogX          bool      // logarithmic x axis (all x must be > 0)
	HLines        []Ref     // horizontal reference lines (dashed, grey shades)
	Points        []Ref     // annotated reference points (black stars)
	YMin, YMax    float64   // fixed y range when YMin < YMax, else automatic
	Width, Height vg.Length // figure size; default 16 cm × 10 cm
	DPI           int       // PNG resolution; default 150
	LegendOutside bool      // legend right of the plot area instead of inside it
	LegendLeft    bool      // inside legend: left instead of right
	LegendBottom  bool      // inside legend: bottom instead of top
}

// Defaults of Options.
const (
	DefaultWidth  = 16 * vg.Centimeter
	DefaultHeight = 10 * vg.Centimeter
	DefaultDPI    = 150
)

// PixelSize returns the PNG's size in pixels for opts.
func PixelSize(opts Options) (w, h int) {
	o := opts.withDefaults()
	return int(float64(o.Width/vg.Inch)*float64(o.DPI) + 0.5), int(float64(o.Height/vg.Inch)*float64(o.DPI) + 0.5)
}

func (o Options) withDefaults() Options {
	if o.Width <= 0 {
		o.Width = DefaultWidth
	}
	if o.Height <= 0 {
		o.Height = DefaultHeight
	}
	if o.DPI <= 0 {
		o.DPI = DefaultDPI
	}
	return o
}

// palette holds 14 distinguishable colours (Tableau 10 plus four darker
// shades), in the order series get them.
var palette = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
	{188, 189, 34, 255}, {23, 190, 207, 255}, {0, 0, 128, 255}, {128, 0, 0, 255},
	{0, 100, 0, 255}, {255, 200, 0, 255},
}

var shapes = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
}

// Color returns series i's colour; Shape its marker.
func Color(i int) color.Color      { return palette[i%len(palette)] }
func Shape(i int) draw.GlyphDrawer { return shapes[i%len(shapes)] }

// Lines draws each series as a line through its points (sorted by the
// caller), with error bars where Lo/Hi are set, and writes path.png and
// path.svg (an extension on path is replaced).
func Lines(path, title, xLabel, yLabel string, series []Series, opts Options) error {
	return render(path, title, xLabel, yLabel, series, opts, true)
}

// Scatter draws each series as unconnected markers (error bars where Lo/Hi
// are set), and writes path.png and path.svg.
func Scatter(path, title, xLabel, yLabel string, series []Series, opts Options) error {
	return render(path, title, xLabel, yLabel, series, opts, false)
}

func validate(series []Series, opts Options) error {
	if len(series) == 0 {
		return errors.New("no series")
	}
	points := 0
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, s := range series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("series %q: %d x values, %d y values", s.Name, len(s.X), len(s.Y))
		}
		if (s.Lo == nil) != (s.Hi == nil) {
			return fmt.Errorf("series %q: Lo and Hi must both be set or both nil", s.Name)
		}
		if s.Lo != nil && (len(s.Lo) != len(s.X) || len(s.Hi) != len(s.X)) {
			return fmt.Errorf("series %q: %d points, %d Lo and %d Hi values", s.Name, len(s.X), len(s.Lo), len(s.Hi))
		}
		if (s.XLo == nil) != (s.XHi == nil) {
			return fmt.Errorf("series %q: XLo and XHi must both be set or both nil", s.Name)
		}
		if s.XLo != nil && (len(s.XLo) != len(s.X) || len(s.XHi) != len(s.X)) {
			return fmt.Errorf("series %q: %d points, %d XLo and %d XHi values", s.Name, len(s.X), len(s.XLo), len(s.XHi))
		}
		if s.Look < 0 {
			return fmt.Errorf("series %q: Look %d < 0", s.Name, s.Look)
		}
		for i := range s.X {
			if s.XLo != nil && !(s.XLo[i] <= s.X[i] && s.X[i] <= s.XHi[i]) {
				return fmt.Errorf("series %q: point %d: want XLo ≤ X ≤ XHi, have %v, %v, %v", s.Name, i, s.XLo[i], s.X[i], s.XHi[i])
			}
			if s.XLo != nil && opts.LogX && s.XLo[i] <= 0 {
				return fmt.Errorf("series %q: XLo %v ≤ 0 on a log axis", s.Name, s.XLo[i])
			}
			if !finite(s.X[i]) || !finite(s.Y[i]) {
				return fmt.Errorf("series %q: point %d (%v, %v) is not finite", s.Name, i, s.X[i], s.Y[i])
			}
			if opts.LogX && s.X[i] <= 0 {
				return fmt.Errorf("series %q: x %v ≤ 0 on a log axis", s.Name, s.X[i])
			}
			if s.Lo != nil && !(s.Lo[i] <= s.Y[i] && s.Y[i] <= s.Hi[i]) {
				return fmt.Errorf("series %q: point %d: want Lo ≤ Y ≤ Hi, have %v, %v, %v", s.Name, i, s.Lo[i], s.Y[i], s.Hi[i])
			}
		}
		points += len(s.X)
	}
	if points == 0 {
		return errors.New("no points in any series")
	}
	for _, r := range opts.HLines {
		if !finite(r.Y) {
			return fmt.Errorf("reference line %q at %v", r.Label, r.Y)
		}
	}
	for _, r := range opts.Points {
		if !finite(r.X) || !finite(r.Y) || opts.LogX && r.X <= 0 {
			return fmt.Errorf("reference point %q at (%v, %v)", r.Label, r.X, r.Y)
		}
	}
	return nil
}

type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

type xErrPoints struct {
	plotter.XYs
	plotter.XErrors
}

func render(path, title, xLabel, yLabel string, series []Series, opts Options, lines bool) error {
	if err := validate(series, opts); err != nil {
		return fmt.Errorf("plot %s: %w", filepath.Base(path), err)
	}
	opts = opts.withDefaults()
	p := gplot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	if opts.LogX {
		p.X.Scale = gplot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	legend := gplot.NewLegend()
	legend.Top = !opts.LegendBottom
	legend.Left = opts.LegendLeft
	legend.TextStyle.Font.Size = vg.Points(9)

	xmin, xmax := math.Inf(1), math.Inf(-1)
	for k, s := range series {
		if len(s.X) == 0 {
			continue
		}
		i := k
		if s.Look > 0 {
			i = s.Look - 1
		}
		xys := make(plotter.XYs, len(s.X))
		for j := range s.X {
			xys[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
			xmin, xmax = min(xmin, s.X[j]), max(xmax, s.X[j])
		}
		var thumbs []gplot.Thumbnailer
		if lines {
			l, err := plotter.NewLine(xys)
			if err != nil {
				return fmt.Errorf("plot %s: %w", filepath.Base(path), err)
			}
			l.Color = Color(i)
			l.Width = vg.Points(1.5)
			if s.Dashed {
				l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			p.Add(l)
			thumbs = append(thumbs, l)
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("plot %s: %w", filepath.Base(path), err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: Color(i), Shape: Shape(i), Radius: vg.Points(3)}
		p.Add(sc)
		thumbs = append(thumbs, sc)
		if s.Lo != nil {
			errs := make(plotter.YErrors, len(s.X))
			for j := range errs {
				errs[j] = struct{ Low, High float64 }{s.Y[j] - s.Lo[j], s.Hi[j] - s.Y[j]}
			}
			eb, err := plotter.NewYErrorBars(errPoints{xys, errs})
			if err != nil {
				return fmt.Errorf("plot %s: %w", filepath.Base(path), err)
			}
			eb.Color = Color(i)
			eb.CapWidth = vg.Points(4)
			p.Add(eb)
		}
		if s.XLo != nil {
			errs := make(plotter.XErrors, len(s.X))
			for j := range errs {
				errs[j] = struct{ Low, High float64 }{s.X[j] - s.XLo[j], s.XHi[j] - s.X[j]}
				xmin, xmax = min(xmin, s.XLo[j]), max(xmax, s.XHi[j])
			}
			eb, err := plotter.NewXErrorBars(xErrPoints{xys, errs})
			if err != nil {
				return fmt.Errorf("plot %s: %w", filepath.Base(path), err)
			}
			eb.Color = Color(i)
			eb.CapWidth = vg.Points(4)
			p.Add(eb)
		}
		legend.Add(s.Name, thumbs...)
	}
	for _, r := range opts.Points {
		xmin, xmax = min(xmin, r.X), max(xmax, r.X)
	}
	if math.IsInf(xmin, 0) { // only reference lines: any span will do
		xmin, xmax = 0, 1
		if opts.LogX {
			xmin = 0.1
		}
	}
	for k, r := range opts.HLines {
		l, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: r.Y}, {X: xmax, Y: r.Y}})
		if err != nil {
			return fmt.Errorf("plot %s: %w", filepath.Base(path), err)
		}
		grey := uint8(60 + 50*(k%3))
		l.Color = color.RGBA{grey, grey, grey, 255}
		l.Dashes = [][]vg.Length{{vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}[k%3]
		l.Width = vg.Points(1.2)
		p.Add(l)
		if r.Label != "" {
			legend.Add(r.Label, l)
		}
	}
	if len(opts.Points) > 0 {
		xys := make(plotter.XYs, len(opts.Points))
		labels := make([]string, len(opts.Points))
		for k, r := range opts.Points {
			xys[k] = plotter.XY{X: r.X, Y: r.Y}
			labels[k] = r.Label
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("plot %s: %w", filepath.Base(path), err)
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: color.Black, Shape: starGlyph{}, Radius: vg.Points(5)}
		p.Add(sc)
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return fmt.Errorf("plot %s: %w", filepath.Base(path), err)
		}
		for k := range lb.TextStyle {
			lb.TextStyle[k].Font.Size = vg.Points(9)
			lb.TextStyle[k].Color = color.Black
		}
		lb.Offset = vg.Point{X: vg.Points(7), Y: vg.Points(-3)}
		p.Add(lb)
	}
	if opts.YMin < opts.YMax {
		p.Y.Min, p.Y.Max = opts.YMin, opts.YMax
	}

	base := strings.TrimSuffix(path, filepath.Ext(path))
	png := vgimg.NewWith(vgimg.UseWH(opts.Width, opts.Height), vgimg.UseDPI(opts.DPI))
	svg := vgsvg.New(opts.Width, opts.Height)
	for _, c := range []vg.CanvasSizer{png, svg} {
		drawFigure(draw.New(c), p, &legend, opts)
	}
	if err := write(base+".png", vgimg.PngCanvas{Canvas: png}); err != nil {
		return err
	}
	return write(base+".svg", svg)
}

// drawFigure draws p and its legend onto dc.
func drawFigure(dc draw.Canvas, p *gplot.Plot, legend *gplot.Legend, opts Options) {
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	pad := vg.Points(4)
	dc = draw.Crop(dc, pad, -pad, pad, -pad)
	if !opts.LegendOutside {
		p.Legend = *legend
		p.Draw(dc)
		return
	}
	p.Legend = gplot.NewLegend()
	r := legend.Rectangle(dc)
	lw := r.Size().X + vg.Points(12)
	p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	legend.Top, legend.Left = true, true
	legend.XOffs = vg.Points(6)
	legend.YOffs = -vg.Points(30)
	legend.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-lw, 0, 0, 0))
}

func write(path string, c io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("plot: writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	return nil
}

// starGlyph is a five-pointed star, for reference points.
type starGlyph struct{}

func (starGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetColor(sty.Color)
	var path vg.Path
	for k := range 10 {
		r := sty.Radius
		if k%2 == 1 {
			r *= 0.45
		}
		a := math.Pi/2 + float64(k)*math.Pi/5
		q := vg.Point{X: pt.X + r*vg.Length(math.Cos(a)), Y: pt.Y + r*vg.Length(math.Sin(a))}
		if k == 0 {
			path.Move(q)
		} else {
			path.Line(q)
		}
	}
	path.Close()
	c.Fill(path)
}

// logTicks labels a log axis at 1, 2 and 5 times the powers of ten (the
// usual ε grid), with unlabelled minor ticks at the other integers.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []gplot.Tick {
	var ts []gplot.Tick
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
		p := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * p
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := gplot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', 6, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}
