package plot

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func accuracySeries(n int) []Series {
	eps := []float64{0.5, 1, 2, 4, 8, 16}
	var out []Series
	for i := range n {
		s := Series{Name: fmt.Sprintf("mechanism %d", i), X: eps}
		for j := range eps {
			y := 0.5 + 0.35*float64(j+1)/float64(len(eps))*float64(i+3)/float64(n+3)
			s.Y = append(s.Y, y)
			s.Lo = append(s.Lo, y-0.01)
			s.Hi = append(s.Hi, y+0.015)
		}
		out = append(out, s)
	}
	out[1].Lo, out[1].Hi = nil, nil
	return out
}

func checkFiles(t *testing.T, base string, opts Options) {
	t.Helper()
	for _, ext := range []string{".png", ".svg"} {
		st, err := os.Stat(base + ext)
		if err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v (size %v)", base+ext, err, st)
		}
	}
	f, err := os.Open(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	w, h := PixelSize(opts)
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("PNG is %v, want %d×%d", b, w, h)
	}
	svg, _ := os.ReadFile(base + ".svg")
	if !strings.Contains(string(svg), "<svg") {
		t.Error("SVG has no <svg")
	}
}

func TestLines(t *testing.T) {
	dir := t.TempDir()
	opts := Options{
		LogX:   true,
		HLines: []Ref{{Label: "non-private baseline", Y: 0.876}, {Label: "chance", Y: 0.5}},
		Points: []Ref{{Label: "TEM paper: 75% at ε=2", X: 2, Y: 0.75}},
		YMin:   0.45, YMax: 0.95,
		LegendOutside: true,
	}
	base := filepath.Join(dir, "accuracy")
	if err := Lines(base+".png", "IMDB accuracy vs ε", "ε", "accuracy", accuracySeries(14), opts); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, base, opts)
	if dst := os.Getenv("WORDVEIL_PLOT_SAMPLE"); dst != "" { // to look at it
		b, _ := os.ReadFile(base + ".png")
		os.WriteFile(dst, b, 0o644)
	}

	opts2 := Options{DPI: 72, LegendBottom: true, LegendLeft: true}
	base2 := filepath.Join(dir, "small")
	if err := Lines(base2, "few", "x", "y", accuracySeries(3), opts2); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, base2, opts2)
}

func TestScatter(t *testing.T) {
	dir := t.TempDir()
	s := []Series{
		{Name: "a", X: []float64{1, 2, 3}, Y: []float64{3, 1, 2}},
		{Name: "empty"},
		{Name: "b", X: []float64{-1}, Y: []float64{0}, Lo: []float64{-0.5}, Hi: []float64{0.2}},
		{Name: "b again", X: []float64{-1, 0}, Y: []float64{0.5, 1}, XLo: []float64{-1.5, 0}, XHi: []float64{-0.5, 0.1}, Look: 3, Dashed: true},
	}
	base := filepath.Join(dir, "scatter")
	if err := Scatter(base, "t", "x", "y", s, Options{Width: 300, Height: 200, HLines: []Ref{{Y: 1}}}); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, base, Options{Width: 300, Height: 200})
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	cases := map[string]struct {
		s    []Series
		opts Options
		want string
	}{
		"no series":  {nil, Options{}, "no series"},
		"no points":  {[]Series{{Name: "a"}}, Options{}, "no points"},
		"xy lengths": {[]Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1}}}, Options{}, "2 x values, 1 y"},
		"lo only":    {[]Series{{Name: "a", X: []float64{1}, Y: []float64{1}, Lo: []float64{0}}}, Options{}, "both"},
		"lo length":  {[]Series{{Name: "a", X: []float64{1}, Y: []float64{1}, Lo: []float64{0, 0}, Hi: []float64{2}}}, Options{}, "Lo and"},
		"lo > y":     {[]Series{{Name: "a", X: []float64{1}, Y: []float64{1}, Lo: []float64{2}, Hi: []float64{3}}}, Options{}, "Lo ≤ Y ≤ Hi"},
		"xlo only":   {[]Series{{Name: "a", X: []float64{1}, Y: []float64{1}, XHi: []float64{2}}}, Options{}, "XLo and XHi"},
		"xlo length": {[]Series{{Name: "a", X: []float64{1}, Y: []float64{1}, XLo: []float64{0, 0}, XHi: []float64{2}}}, Options{}, "XLo and"},
		"xlo > x":    {[]Series{{Name: "a", X: []float64{1}, Y: []float64{1}, XLo: []float64{2}, XHi: []float64{3}}}, Options{}, "XLo ≤ X ≤ XHi"},
		"look":       {[]Series{{Name: "a", X: []float64{1}, Y: []float64{1}, Look: -1}}, Options{}, "Look"},
		"log x":      {[]Series{{Name: "a", X: []float64{0}, Y: []float64{1}}}, Options{LogX: true}, "log axis"},
		"nan":        {[]Series{{Name: "a", X: []float64{1}, Y: []float64{nan()}}}, Options{}, "not finite"},
	}
	for name, c := range cases {
		for _, f := range []func(string, string, string, string, []Series, Options) error{Lines, Scatter} {
			err := f(p, "t", "x", "y", c.s, c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: err %v, want it to mention %q", name, err, c.want)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written on error: %v", ents)
	}
}

func nan() float64 { var z float64; return z / z }
