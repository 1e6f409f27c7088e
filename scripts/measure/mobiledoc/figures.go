package main

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// figures are the measurements of one scripts/measure-mobile.sh run.
type figures struct {
	// kv holds the "figure KEY=VALUE" lines (Measure.java, the script's
	// sizes and machine lines).
	kv map[string]string
	// cold holds, per mechanism and field, the values of the
	// KeyboardColdStart lines ("mech=brr load_ms=17.4 ..."), one per run.
	cold map[string]map[string][]float64
	// bench holds, per benchmark name without its -GOMAXPROCS suffix and
	// per unit ("ns/op", "B/op", "allocs/op"), the values of each run.
	bench map[string]map[string][]float64
}

// parseFigures reads the lines the measurement steps printed; other lines
// (test output, headings) are skipped.
func parseFigures(r io.Reader) (*figures, error) {
	f := &figures{kv: map[string]string{}, cold: map[string]map[string][]float64{}, bench: map[string]map[string][]float64{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		var err error
		switch {
		case strings.HasPrefix(line, "figure "):
			k, v, ok := strings.Cut(strings.TrimPrefix(line, "figure "), "=")
			if !ok || k == "" {
				err = fmt.Errorf("want figure KEY=VALUE")
			}
			f.kv[k] = v
		case strings.HasPrefix(line, "mech="):
			err = f.addCold(line)
		case strings.HasPrefix(line, "Benchmark"):
			err = f.addBench(line)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d %q: %w", n, line, err)
		}
	}
	return f, sc.Err()
}

func (f *figures) addCold(line string) error {
	fields := strings.Fields(line)
	mech := strings.TrimPrefix(fields[0], "mech=")
	if f.cold[mech] == nil {
		f.cold[mech] = map[string][]float64{}
	}
	for _, kv := range fields[1:] {
		k, v, _ := strings.Cut(kv, "=")
		if !strings.HasSuffix(k, "_ms") && !strings.HasSuffix(k, "_mb") {
			continue // version=...
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		f.cold[mech][k] = append(f.cold[mech][k], x)
	}
	return nil
}

// addBench reads a `go test -bench` result line: name, iterations, then
// value-unit pairs.
func (f *figures) addBench(line string) error {
	fields := strings.Fields(line)
	if len(fields) < 4 || len(fields)%2 != 0 {
		return nil // a benchmark's log line, not a result
	}
	name := fields[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	if f.bench[name] == nil {
		f.bench[name] = map[string][]float64{}
	}
	for i := 2; i+1 < len(fields); i += 2 {
		x, err := strconv.ParseFloat(fields[i], 64)
		if err != nil {
			return fmt.Errorf("%s: %w", fields[i+1], err)
		}
		f.bench[name][fields[i+1]] = append(f.bench[name][fields[i+1]], x)
	}
	return nil
}

// median of xs (the lower middle for an even count, as the shell script
// before this program did); ok false when there is none.
func median(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2], true
}

// need collects the figures a rendering uses and the names of those
// missing, so that a run that lost a step fails instead of writing blanks.
type need struct {
	f       *figures
	missing []string
}

func (n *need) str(key string) string {
	v, ok := n.f.kv[key]
	if !ok || v == "" {
		n.missing = append(n.missing, key)
	}
	return v
}

func (n *need) num(key string) float64 {
	v := n.str(key)
	x, err := strconv.ParseFloat(v, 64)
	if err != nil && v != "" {
		n.missing = append(n.missing, key+" (not a number: "+v+")")
	}
	return x
}

func (n *need) cold(mech, field string) float64 {
	x, ok := median(n.f.cold[mech][field])
	if !ok {
		n.missing = append(n.missing, "cold start "+mech+" "+field)
	}
	return x
}

func (n *need) runs(mech string) int {
	return len(n.f.cold[mech]["cold_ms"])
}

func (n *need) bench(name, unit string) float64 {
	x, ok := median(n.f.bench[name][unit])
	if !ok {
		n.missing = append(n.missing, "benchmark "+name+" "+unit)
	}
	return x
}
