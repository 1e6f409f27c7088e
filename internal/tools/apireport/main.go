// Command apireport counts the exported API of the module's packages, or
// lists the exported identifiers that lack a doc comment. scripts/
// exported-names.sh runs it.
//
//	apireport [-undocumented] [packages]   (default ./...)
//
// It reads only the non-test Go files `go list` selects for the current
// GOOS/GOARCH and build tags, so a name declared once per platform (an
// assembly kernel's Go stub) is counted once. It guarantees nothing about
// other platforms' files. It counts declarations, not what callers can
// reach: methods and fields count only on exported types (see count.go),
// and internal and main packages are counted like the others, marked in the
// kind column.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "apireport:", err)
		os.Exit(1)
	}
}

// listedPackage is the part of `go list -json` apireport reads.
type listedPackage struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Module     *struct{ Path string }
	Error      *struct{ Err string }
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("apireport", flag.ContinueOnError)
	undocumented := fs.Bool("undocumented", false, "list exported identifiers without a doc comment instead of the table")
	if err := fs.Parse(args); err != nil {
		return err
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	pkgs, err := goList(patterns)
	if err != nil {
		return err
	}
	var reports []packageReport
	for _, p := range pkgs {
		files := make([]string, 0, len(p.GoFiles)+len(p.CgoFiles))
		for _, f := range append(append([]string(nil), p.GoFiles...), p.CgoFiles...) {
			files = append(files, filepath.Join(p.Dir, f))
		}
		r, err := countPackage(files)
		if err != nil {
			return fmt.Errorf("%s: %w", p.ImportPath, err)
		}
		r.Path = shortPath(p)
		r.Kind = packageKind(p)
		reports = append(reports, r)
	}
	if *undocumented {
		return printUndocumented(stdout, reports)
	}
	return printTable(stdout, reports)
}

// goList runs `go list -json` on patterns and decodes its stream of objects.
func goList(patterns []string) ([]listedPackage, error) {
	cmd := exec.Command("go", append([]string{"list", "-json=ImportPath,Name,Dir,GoFiles,CgoFiles,Module,Error"}, patterns...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var pkgs []listedPackage
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %v", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("go list: %s", p.Error.Err)
		}
		pkgs = append(pkgs, p)
	}
}

// shortPath is the import path relative to its module ("." for the root).
func shortPath(p listedPackage) string {
	if p.Module == nil {
		return p.ImportPath
	}
	if p.ImportPath == p.Module.Path {
		return "."
	}
	return strings.TrimPrefix(p.ImportPath, p.Module.Path+"/")
}

// packageKind says who can import the package: "main" (nobody), "internal"
// (the module only) or "public".
func packageKind(p listedPackage) string {
	switch {
	case p.Name == "main":
		return "main"
	case p.ImportPath == "internal" || strings.HasPrefix(p.ImportPath, "internal/") ||
		strings.Contains(p.ImportPath, "/internal/") || strings.HasSuffix(p.ImportPath, "/internal"):
		return "internal"
	}
	return "public"
}

// printTable writes one row per package and a total, the names left-aligned
// and the numbers right-aligned.
func printTable(w io.Writer, reports []packageReport) error {
	rows := [][]string{{"package", "kind", "types", "funcs", "methods", "vars", "consts", "names", "fields", "undocumented"}}
	row := func(path, kind string, c counts, undoc int) {
		rows = append(rows, []string{path, kind, itoa(c.Types), itoa(c.Funcs), itoa(c.Methods),
			itoa(c.Vars), itoa(c.Consts), itoa(c.Names()), itoa(c.Fields), itoa(undoc)})
	}
	var sum counts
	undoc := 0
	for _, r := range reports {
		row(r.Path, r.Kind, r.Counts, len(r.Undocumented))
		sum.add(r.Counts)
		undoc += len(r.Undocumented)
	}
	row(fmt.Sprintf("total (%d packages)", len(reports)), "", sum, undoc)
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, cell := range r {
			width[i] = max(width[i], len(cell))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		for i, cell := range r {
			pad := strings.Repeat(" ", width[i]-len(cell))
			switch {
			case i < 2:
				b.WriteString(cell + pad + "  ")
			case i == len(r)-1:
				b.WriteString(pad + cell + "\n")
			default:
				b.WriteString(pad + cell + "  ")
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func itoa(n int) string { return strconv.Itoa(n) }

func printUndocumented(w io.Writer, reports []packageReport) error {
	for _, r := range reports {
		for _, u := range r.Undocumented {
			if _, err := fmt.Fprintf(w, "%s\t%s\n", r.Path, u); err != nil {
				return err
			}
		}
	}
	return nil
}
