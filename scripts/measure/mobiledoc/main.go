// Command mobiledoc writes the figures of one scripts/measure-mobile.sh run
// into docs/MOBILE.md and the README, between marker comments
//
//	<!-- measured:NAME -->…<!-- /measured:NAME -->
//
// so that no measured figure in them is copied by hand. It refuses to write
// anything when a figure is missing (a measurement step failed) or a
// marker pair is missing or repeated. With -check it only verifies the
// markers (the figures vary by machine, so their values are not checked).
//
// Usage:
//
//	mobiledoc -figures FILE -mobile docs/MOBILE.md -readme README.md
//	mobiledoc -check -mobile docs/MOBILE.md -readme README.md
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
)

func main() {
	figs := flag.String("figures", "", "the measurement output (figure, mech= and Benchmark lines)")
	mobile := flag.String("mobile", "docs/MOBILE.md", "the mobile document")
	readme := flag.String("readme", "README.md", "the README")
	check := flag.Bool("check", false, "only check that every marker pair is there once")
	flag.Parse()
	if err := run(*figs, map[string]string{"MOBILE": *mobile, "README": *readme}, *check); err != nil {
		fmt.Fprintln(os.Stderr, "mobiledoc:", err)
		os.Exit(1)
	}
}

func run(figPath string, files map[string]string, check bool) error {
	docs := map[string]string{}
	for name, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		docs[name] = string(b)
	}
	if check {
		var errs []error
		for _, s := range sections {
			if _, err := replace(docs[s.file], s.name, ""); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", files[s.file], err))
			}
		}
		return errors.Join(errs...)
	}
	if figPath == "" {
		return errors.New("-figures is required (or -check)")
	}
	f, err := os.Open(figPath)
	if err != nil {
		return err
	}
	defer f.Close()
	figs, err := parseFigures(f)
	if err != nil {
		return fmt.Errorf("%s: %w", figPath, err)
	}
	out, err := render(figs, docs)
	if err != nil {
		return err
	}
	for name, text := range out {
		if text == docs[name] {
			continue
		}
		if err := os.WriteFile(files[name], []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// render fills every section of docs (by file name) from figs.
func render(figs *figures, docs map[string]string) (map[string]string, error) {
	n := &need{f: figs}
	out := map[string]string{}
	for k, v := range docs {
		out[k] = v
	}
	for _, s := range sections {
		body := s.render(n)
		if !s.inline {
			body = "\n" + body
		} else if strings.Contains(body, "\n") {
			return nil, fmt.Errorf("section %s: a newline in an inline section", s.name)
		}
		var err error
		if out[s.file], err = replace(out[s.file], s.name, body); err != nil {
			return nil, fmt.Errorf("%s: %w", s.file, err)
		}
	}
	if len(n.missing) > 0 {
		return nil, fmt.Errorf("figures missing from the measurement output: %s", strings.Join(n.missing, ", "))
	}
	return out, nil
}

// replace puts body between the markers of section name in doc; an error
// when the pair is not there exactly once, in order.
func replace(doc, name, body string) (string, error) {
	open, end := "<!-- measured:"+name+" -->", "<!-- /measured:"+name+" -->"
	i, j := strings.Index(doc, open), strings.Index(doc, end)
	switch {
	case i < 0 || j < 0:
		return "", fmt.Errorf("no %s … %s markers", open, end)
	case strings.Count(doc, open) != 1 || strings.Count(doc, end) != 1:
		return "", fmt.Errorf("the markers of %s appear more than once", name)
	case j < i:
		return "", fmt.Errorf("the end marker of %s comes before its start", name)
	}
	return doc[:i+len(open)] + body + doc[j:], nil
}
