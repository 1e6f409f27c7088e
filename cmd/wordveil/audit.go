package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/wordveil/wordveil/internal/audit"
)

// auditCmd audits every on-device mechanism's exact output distribution
// against its metric-DP guarantee on small vocabularies (the first -words
// words of the asset, a dense asset neighbourhood and synthetic sets), plus
// negative controls that the audit must catch. It fails if a real
// mechanism fails or a control is not caught.
func auditCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("wordveil audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: wordveil audit [flags]

Computes each on-device mechanism's exact output distribution on small
vocabularies and checks ln P(y|w) − ln P(y|w') ≤ ε·d(w,w') for every pair
of words and every output (a worst excess ≤ 1e-9 passes). Negative
controls (known-bad mechanisms) must be caught.

Flags:
`)
		fs.PrintDefaults()
	}
	words := fs.Int("words", audit.DefaultWords, fmt.Sprintf("audit the first `K` words of the asset (2..%d; the check is cubic in K)", audit.MaxWords))
	path := fs.String("asset", "", "asset file (default: the embedded English asset)")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: audit takes no arguments (got %q)", errUsage, fs.Args())
	}
	if *words < 2 || *words > audit.MaxWords {
		return fmt.Errorf("%w: audit needs 2 ≤ -words ≤ %d (got %d)", errUsage, audit.MaxWords, *words)
	}
	a, err := loadAsset(*path)
	if err != nil {
		return err
	}
	tab, err := audit.Run(a, audit.Options{Words: *words})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			audit.Table
			OK bool `json:"ok"`
		}{tab, tab.OK()}); err != nil {
			return err
		}
	} else if err := printAudit(stdout, tab); err != nil {
		return err
	}
	if !tab.OK() {
		var real, controls int
		for _, r := range tab.Failures() {
			if r.Control {
				controls++
			} else {
				real++
			}
		}
		return fmt.Errorf("audit failed: %d mechanism case(s) violate metric-DP, %d negative control(s) not caught", real, controls)
	}
	return nil
}

func printAudit(w io.Writer, tab audit.Table) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MECHANISM\tε\tVOCABULARY\tN\tWORST EXCESS\tTIGHTNESS\tRESULT")
	var real, pass, vacuous, controls, caught int
	for _, r := range tab.Results {
		if r.Vacuous() {
			vacuous++
		}
		if r.Control {
			controls++
			if r.OK {
				caught++
			}
		} else {
			real++
			if r.OK {
				pass++
			}
		}
		excess := audit.FormatFloat(r.Report.Excess)
		if r.Report.Invalid != "" {
			excess = "invalid: " + r.Report.Invalid
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\n", r.Mechanism, audit.FormatFloat(r.Eps), r.Vocabulary, r.N,
			excess, audit.FormatFloat(r.Report.Tightness), r.Status)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range tab.Skipped {
		fmt.Fprintln(w, "skipped:", s)
	}
	fmt.Fprintf(w, "\nWorst excess = max over w, w', y of ln P(y|w) − ln P(y|w') − ε·d(w,w'); ≤ %g passes.\n", audit.Tolerance)
	fmt.Fprintln(w, "Tightness = max of (ln P(y|w) − ln P(y|w')) / (ε·d(w,w')): the share of the guarantee used (> 1 violates).")
	fmt.Fprintf(w, "%d/%d mechanism cases pass (%d vacuous: tightness < %s); %d/%d negative controls caught.\n",
		pass, real, vacuous, audit.FormatFloat(audit.MinTightness), caught, controls)
	return nil
}
