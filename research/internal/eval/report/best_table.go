package report

import (
	"fmt"
	"strings"

	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// bestSection renders RESULTS.md's answer to the search for the best
// on-device configuration.
func bestSection(s *Study) string {
	var b strings.Builder
	ts := make([]string, len(study.CandidateTargets))
	for i, t := range study.CandidateTargets {
		ts[i] = fmt.Sprint(t)
	}
	fmt.Fprintf(&b, "## Best on-device configuration at N_w ≈ %s\n\n", strings.Join(ts, ", "))
	if !s.hasCandidates() {
		b.WriteString("No candidate configuration (`cand:*`) is in this results file: run the study with them to answer the search.\n\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Each candidate (an on-device mechanism, its list count and its output vocabulary) runs at the ε that put its N_w on each target, calibrated on the study's own deniability words (within ±%.2f). At each target, the best candidate is the one with the highest mean accuracy among the candidate cells within ±%.2f of it. Every other mechanism is read at the same N_w — the larger of the target and the candidate's measured N_w, so rounding never favours the candidate — by linear interpolation of its accuracy between the two cells whose N_w bracket it (mean and both 95%% CI ends alike), or by its best cell at a lower N_w where that is higher (a curve that is not monotone). A mechanism whose cells are all less private than that N_w is never as private and cannot contradict the lead (*never as private*); one whose cells are all more private is read at its least private cell (*not reached*), which is at a lower N_w and so is a fair comparison. Verdicts: *means* — the candidate's mean is at least the mechanism's; *CI-separated* — the candidate's lower CI end is above the mechanism's upper end. Δ is the paired difference in accuracy (candidate − mechanism, percentage points) over the runs both have: runs share the classifier's seed, not the privatization noise, so the pairing removes only the classifier's share of the variance. Interpolating CI ends is an approximation: the interval of an interpolated mean is not the interpolated interval. A limit of the criterion itself: N_w is averaged over words drawn uniformly from the vocabulary, so a candidate whose outputs are restricted to the M most frequent words (never releasing the other words unchanged) has N_w ≤ M/N however often it releases the frequent words — most of a text's tokens — unchanged; S_w (distinct outputs per word) shows how much such a candidate still hides. And the best of many candidates, chosen on the same runs that report it, is favoured by that choice (the winner's curse): a lead within the intervals needs fresh runs to confirm it.\n\n", study.CandidateTolerance, levelTolerance)
	var summary []string
	for _, t := range study.CandidateTargets {
		l := s.bestAt(t)
		fmt.Fprintf(&b, "### N_w ≈ %g\n\n", t)
		if l.Cand == nil {
			fmt.Fprintf(&b, "No candidate reached N_w = %g within ±%.2f.\n\n", t, levelTolerance)
			summary = append(summary, fmt.Sprintf("At N_w ≈ %g no candidate reached the level.", t))
			continue
		}
		c := l.Cand
		leads, beaten := l.Leads()
		comparable, separated := 0, 0
		for _, o := range l.Others {
			if o.Comparable {
				comparable++
				if o.Separated {
					separated++
				}
			}
		}
		verdict := "leads every other mechanism on means"
		if !leads {
			names := make([]string, len(beaten))
			for i, m := range beaten {
				names[i] = display(m)
			}
			verdict = "does not lead (beaten on means by " + strings.Join(names, "; ") + ")"
		}
		fmt.Fprintf(&b, "Best candidate: **%s** (`%s`, ε = %.4g): **%s** (95%% CI %s–%s, %d runs) at measured N_w %.3f (S_w %s). It %s; it is CI-separated from %d of the %d mechanisms that are ever as private.\n\n",
			display(c.Mechanism), c.Mechanism, c.Epsilon, pct(c.Mean), pct(c.Lo), pct(c.Hi), c.Runs, c.NW, f(c.SW, 1), verdict, separated, comparable)
		summary = append(summary, fmt.Sprintf("At N_w ≈ %g the best on-device configuration is %s with %s (95%% CI %s–%s); it %s, and is CI-separated from %d of %d.",
			t, display(c.Mechanism), pct(c.Mean), pct(c.Lo), pct(c.Hi), verdict, separated, comparable))
		fmt.Fprintf(&b, "| mechanism | accuracy at N_w = %.3f | 95%% CI | read from | candidate ≥ (means) | CI-separated | Δ (pp, 95%% CI, runs) |\n|---|---|---|---|---|---|---|\n", l.X)
		for _, o := range l.Others {
			p := o.At
			from := fmt.Sprintf("interpolated, N_w %.3f–%.3f", p.a.NW, p.b.NW)
			switch {
			case p.Lower:
				from = fmt.Sprintf("its best cell at a lower N_w (%.3f)", p.a.NW)
			case p.a == p.b && p.Reached:
				from = fmt.Sprintf("cell at N_w %.3f", p.a.NW)
			case p.Below:
				from = fmt.Sprintf("never as private (nearest cell N_w %.3f)", p.a.NW)
			case !p.Reached:
				from = fmt.Sprintf("not reached (nearest cell N_w %.3f)", p.a.NW)
			}
			// Shown for every mechanism; one never as private does not
			// count against the lead (Leads).
			byMean, sep := yesNo(o.ByMean), yesNo(o.Separated)
			diff := "—"
			if o.DiffRuns >= 2 {
				diff = fmt.Sprintf("%+.1f (%+.1f to %+.1f, %d)", 100*o.Diff, 100*o.DiffLo, 100*o.DiffHi, o.DiffRuns)
			}
			fmt.Fprintf(&b, "| %s | %s | %s–%s | %s | %s | %s | %s |\n", display(o.Mechanism), pct(p.Mean), pct(p.Lo), pct(p.Hi), from, byMean, sep, diff)
		}
		if len(l.Also) > 0 {
			b.WriteString("\nThe other candidates at this level:\n\n| candidate | ε | N_w | S_w | accuracy | 95% CI |\n|---|---|---|---|---|---|\n")
			for _, a := range l.Also {
				fmt.Fprintf(&b, "| %s | %.4g | %.3f | %s | %s | %s–%s |\n", display(a.Mechanism), a.Epsilon, a.NW, f(a.SW, 1), pct(a.Mean), pct(a.Lo), pct(a.Hi))
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("**Summary.** " + strings.Join(summary, " ") + "\n\n")
	return b.String()
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

// candidateOf returns the candidate m names ("cand:NAME"); ok is false
// for other mechanisms and for names the study no longer lists.
func candidateOf(m string) (study.Candidate, bool) {
	name, ok := strings.CutPrefix(m, study.CandidatePrefix)
	if !ok {
		return study.Candidate{}, false
	}
	for _, c := range study.Candidates {
		if c.Name == name {
			return c, true
		}
	}
	return study.Candidate{Name: name, Label: name}, true
}

// candidateLabel is the display name of candidate m ("cand:NAME").
func candidateLabel(m string) (string, bool) {
	c, ok := candidateOf(m)
	if !ok {
		return "", false
	}
	return "candidate: " + c.Label, true
}
