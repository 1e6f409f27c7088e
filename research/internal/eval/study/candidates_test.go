package study

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// withCusText gives the fixture's asset CusText sets of 20 consecutive ids.
func withCusText(t *testing.T, env *Env) {
	t.Helper()
	n := env.Asset.Len()
	var groups [][]uint32
	for lo := 0; lo < n; lo += 20 {
		var g []uint32
		for w := lo; w < min(lo+20, n); w++ {
			g = append(g, uint32(w))
		}
		groups = append(groups, g)
	}
	sets, err := wva.NewCusTextSets(n, 20, groups)
	if err != nil {
		t.Fatal(err)
	}
	env.Asset.CusText = sets
}

// measured is the N_w the study records for spec's grid index e (the
// study's label, seed and protocol), and an independent estimate with
// other draws.
func measured(t *testing.T, env *Env, s Spec, e int) (float64, float64) {
	t.Helper()
	smp, err := s.Build(env, e)
	if err != nil {
		t.Fatal(err)
	}
	n := env.Asset.Len()
	label := fmt.Sprintf("deniability/%s/%d/0", s.Name, e)
	study, _, err := deniability(smp, n, 100, 100, CandidateSeed, source(CandidateSeed, label))
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := deniability(smp, n, 100, 100, CandidateSeed, source(CandidateSeed, "independent"))
	if err != nil {
		t.Fatal(err)
	}
	return study, other
}

// TestCandidateCalibrationHitsTargets: each candidate's calibrated ε
// gives the study's deniability cell within CandidateTolerance of every
// target. -short calibrates one candidate of each family (brr, custext, 1dg-1,
// 1dt-2); the others (tem-hamming and santext cost most: about 160,000
// draws per target in the final bisection, minutes under -race) run in
// test-full.
func TestCandidateCalibrationHitsTargets(t *testing.T) {
	env, _, _ := fixture(t)
	withCusText(t, env)
	for _, tc := range []struct {
		name, family string
		short        bool
	}{
		{"brr", "hamming", true},
		{"tem-hamming", "hamming", false},
		{"santext", "hamming", false},
		{"custext", "custext", true},
		{"1dg-1", "list", true},
		{"1dg-2", "lists", false},
		{"1dt-1", "list", false},
		{"1dt-2", "lists", true},
	} {
		if testing.Short() && !tc.short {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			s, err := candidateSpec(env, CandidatePrefix+tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if s.Name != CandidatePrefix+tc.name || s.Family != tc.family || s.Pooled != (tc.family == "hamming") {
				t.Errorf("spec %q family %q pooled %v", s.Name, s.Family, s.Pooled)
			}
			if len(s.Eps) != len(CandidateTargets) || len(s.Matched) != len(s.Eps) {
				t.Fatalf("eps %v matched %v: want %d levels", s.Eps, s.Matched, len(CandidateTargets))
			}
			for e, target := range CandidateTargets {
				if !math.IsNaN(s.Matched[e]) {
					t.Errorf("matched[%d] = %v, want NaN", e, s.Matched[e])
				}
				if e > 0 && s.Eps[e] <= s.Eps[e-1] {
					t.Errorf("ε not increasing with the target: %v", s.Eps)
				}
				nw, other := measured(t, env, s, e)
				t.Logf("target %.2f: ε = %.4g, N_w = %.4f (study cell), %.4f (other draws)", target, s.Eps[e], nw, other)
				if math.Abs(nw-target) > CandidateTolerance {
					t.Errorf("target %.2f: the study's cell measures %.4f", target, nw)
				}
				// Other draws on the same words: only draw noise (10^4
				// draws, sd ≤ 0.005) separates them.
				if math.Abs(other-target) > 0.03 {
					t.Errorf("target %.2f: other draws measure %.4f", target, other)
				}
			}
		})
	}
}

func TestCandidateCalibrationIsDeterministic(t *testing.T) {
	env, _, _ := fixture(t)
	a, err := candidateSpec(env, "cand:1dt-1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := candidateSpec(env, "cand:1dt-1")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(a.Eps) != fmt.Sprint(b.Eps) {
		t.Errorf("two calibrations differ: %v and %v", a.Eps, b.Eps)
	}
}

func TestCandidateUnknownNames(t *testing.T) {
	env, _, _ := fixture(t)
	for _, name := range []string{"cand:nope", "brr", "cand:", "preset:brr", "cand:BRR"} {
		if _, err := candidateSpec(env, name); err == nil {
			t.Errorf("%q: no error", name)
		}
	}
	if _, err := candidateSpec(nil, "cand:brr"); err == nil {
		t.Error("nil env: no error")
	}
	// CusText without sets, list counts the asset lacks, bad settings.
	for _, c := range []Candidate{
		{Name: "x", Mech: mechanism.NameCusText},
		{Name: "x", Mech: mechanism.Name1DT, Lists: 3},
		{Name: "x", Mech: mechanism.Name1DG},
		{Name: "x", Mech: mechanism.NameBRR, Lists: 1},
		{Name: "x", Mech: mechanism.NameBRR, Top: -1},
		{Name: "x", Mech: mechanism.NameTEM},
	} {
		if _, _, err := calibrateCandidate(env, c, defaultCalibration); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if _, _, err := calibrateCandidate(env, Candidates[0], calibration{}); err == nil {
		t.Error("zero calibration: no error")
	}
}

func TestCandidateUnreachableTargetIsReported(t *testing.T) {
	env, _, _ := fixture(t)
	// Outputs = the 12 most frequent of 60 words: an input outside them is
	// never released unchanged, so N_w ≤ 12/60 = 0.2 on uniform words.
	c := Candidate{Name: "brr+top12", Mech: mechanism.NameBRR, Default: true, Top: 12}
	s, levels, err := calibrateCandidate(env, c, defaultCalibration)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Eps) != 1 || len(levels) != 3 {
		t.Fatalf("eps %v, levels %+v: want only the 0.1 level", s.Eps, levels)
	}
	if nw, _ := measured(t, env, s, 0); math.Abs(nw-0.1) > CandidateTolerance {
		t.Errorf("the reached level measures %.4f", nw)
	}
	for _, l := range levels[1:] {
		if !errors.Is(l.Err, ErrUnreachable) || !strings.Contains(l.Err.Error(), "cand:brr+top12") {
			t.Errorf("target %.2f: %v", l.Target, l.Err)
		}
		t.Logf("%v", l.Err)
	}
	// 3 of 60: no target is reachable, and the spec fails saying why.
	c.Top = 3
	if _, _, err := calibrateCandidate(env, c, defaultCalibration); !errors.Is(err, ErrUnreachable) {
		t.Errorf("top 3: %v", err)
	}
}

func TestCandidateCalibrateTarget(t *testing.T) {
	cal := calibration{Coarse: 40, Final: 16}
	smooth := func(eps float64) (float64, error) { return eps / (1 + eps), nil }
	offset := func(eps float64) (float64, error) { return min(1, eps/(1+eps)+0.004), nil } // coarse ≠ full
	// step jumps over 0.3.
	step := func(eps float64) (float64, error) {
		if eps < 1 {
			return 0.2, nil
		}
		return 0.4, nil
	}
	for _, tc := range []struct {
		name          string
		coarse, full  func(float64) (float64, error)
		target        float64
		unreachable   bool
		lo, hi        float64
		wantNWWithin  float64
		wantEpsNear   float64
		wantEpsFactor float64
	}{
		{name: "smooth 0.1", coarse: smooth, full: smooth, target: 0.1, lo: 1e-4, hi: 100, wantNWWithin: CandidateTolerance, wantEpsNear: 1.0 / 9, wantEpsFactor: 1.2},
		{name: "smooth 0.5", coarse: smooth, full: smooth, target: 0.5, lo: 1e-4, hi: 100, wantNWWithin: CandidateTolerance, wantEpsNear: 1, wantEpsFactor: 1.1},
		{name: "coarse off", coarse: smooth, full: offset, target: 0.25, lo: 1e-4, hi: 100, wantNWWithin: CandidateTolerance, wantEpsNear: 1.0 / 3, wantEpsFactor: 1.2},
		{name: "above range", coarse: smooth, full: smooth, target: 0.5, lo: 1e-4, hi: 0.5, unreachable: true},
		{name: "below range", coarse: smooth, full: smooth, target: 0.1, lo: 1, hi: 100, unreachable: true},
		{name: "jump over target", coarse: step, full: step, target: 0.3, lo: 1e-3, hi: 10, unreachable: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eps, nw, err := calibrateTarget(tc.coarse, tc.full, tc.target, tc.lo, tc.hi, cal)
			if tc.unreachable {
				if !errors.Is(err, ErrUnreachable) {
					t.Errorf("got ε = %v, N_w = %v, err %v; want ErrUnreachable", eps, nw, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(nw-tc.target) > tc.wantNWWithin {
				t.Errorf("N_w = %v", nw)
			}
			if eps < tc.wantEpsNear/tc.wantEpsFactor || eps > tc.wantEpsNear*tc.wantEpsFactor {
				t.Errorf("ε = %v, want ≈ %v", eps, tc.wantEpsNear)
			}
		})
	}
	// Evaluation errors pass through.
	boom := errors.New("boom")
	bad := func(float64) (float64, error) { return 0, boom }
	if _, _, err := calibrateTarget(smooth, bad, 0.1, 1e-3, 10, cal); !errors.Is(err, boom) {
		t.Errorf("error not passed on: %v", err)
	}
}

func TestCandidateList(t *testing.T) {
	env, _, _ := fixture(t)
	withCusText(t, env)
	if n := len(Candidates); n < 12 || n > 16 {
		t.Errorf("%d candidates, want 12 to 16", n)
	}
	seen := map[string]bool{}
	for i, c := range Candidates {
		if seen[c.Name] || c.Label == "" {
			t.Errorf("candidate %q: duplicate or unlabelled", c.Name)
		}
		seen[c.Name] = true
		if CandidateNames()[i] != CandidatePrefix+c.Name {
			t.Errorf("CandidateNames()[%d] = %q", i, CandidateNames()[i])
		}
		build, _, err := c.builder(env)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		if _, err := build(env, 0.5); err != nil {
			t.Errorf("%s at ε = 0.5: %v", c.Name, err)
		}
	}
}

func TestCandidateOutputs(t *testing.T) {
	env, _, _ := fixture(t)
	env.Asset.Header.Excluded = &wva.Excluded{IDs: []uint32{2, 40}}
	defer func() { env.Asset.Header.Excluded = nil }()
	for _, tc := range []struct {
		c       Candidate
		allowed int // -1: nil (every word)
		absent  []int
	}{
		{Candidate{}, -1, nil},
		{Candidate{Default: true}, 58, []int{2, 40}},
		{Candidate{Default: true, Top: 10}, 9, []int{2, 10, 40}},
		{Candidate{Default: true, Top: 1000}, 58, []int{2, 40}},
	} {
		o, err := tc.c.outputs(env)
		if err != nil {
			t.Fatal(err)
		}
		if tc.allowed < 0 {
			if o != nil {
				t.Errorf("%+v: got %d outputs, want nil", tc.c, o.Len())
			}
			continue
		}
		if o.Len() != tc.allowed {
			t.Errorf("%+v: %d outputs, want %d", tc.c, o.Len(), tc.allowed)
		}
		for _, id := range tc.absent {
			if o.Allowed(id) {
				t.Errorf("%+v: %d allowed", tc.c, id)
			}
		}
	}
}

// researchAsset is the research asset the study runs on; the calibration
// test on it skips when it is absent (it is built, never downloaded, by
// the research CLI).
func researchAsset(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("WORDVEIL_RESEARCH_ASSET"); p != "" {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory for the research asset")
	}
	return filepath.Join(home, ".cache", "wordveil", "en-glove100-50k-floats.v2.wva")
}

// TestCandidateCalibrationOnResearchAsset calibrates every candidate on
// the real research asset (minutes: skipped with -short) and checks the
// study's own cell at every reached level; it logs the time each takes.
// Select it with -run CandidateCalibrationOnResearchAsset.
func TestCandidateCalibrationOnResearchAsset(t *testing.T) {
	if testing.Short() {
		t.Skip("calibrating on the research asset takes minutes")
	}
	path := researchAsset(t)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("research asset %s absent (build it with 'wordveil-research assets'): %v", path, err)
	}
	a, err := wva.LoadWith(path, wva.DecodeOptions{MaxMemory: 1 << 30}) // float vectors: above the default budget
	if err != nil {
		t.Fatal(err)
	}
	env, err := NewEnv(a, CandidateSeed)
	if err != nil {
		t.Fatal(err)
	}
	total := time.Now()
	for _, c := range Candidates {
		start := time.Now()
		s, levels, err := calibrateCandidate(env, c, defaultCalibration)
		for _, l := range levels {
			if l.Err != nil {
				t.Logf("%-22s target %.2f: %v", c.Name, l.Target, l.Err)
			} else {
				t.Logf("%-22s target %.2f: ε = %.5g, N_w = %.4f", c.Name, l.Target, l.Eps, l.NW)
			}
		}
		t.Logf("%-22s calibrated in %.1fs", c.Name, time.Since(start).Seconds())
		if err != nil {
			t.Logf("%s: no level reached: %v", c.Name, err)
			continue
		}
		for e := range s.Eps {
			l := levels[targetIndex(levels, e)]
			nw, other := measured(t, env, s, e)
			if math.Abs(nw-l.Target) > CandidateTolerance || math.Abs(other-l.Target) > 0.03 {
				t.Errorf("%s: level %d measures %.4f (study cell), %.4f (other draws) for %.2f", c.Name, e, nw, other, l.Target)
			}
		}
	}
	t.Logf("all candidates calibrated in %.1fs", time.Since(total).Seconds())
}

// targetIndex is the index in levels of the e-th reached level.
func targetIndex(levels []level, e int) int {
	for i, l := range levels {
		if l.Err == nil {
			if e == 0 {
				return i
			}
			e--
		}
	}
	return -1
}
