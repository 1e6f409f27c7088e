package core

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/wva"
)

// knownSentinels names the exported sentinel errors of the packages below
// package core, as "pkg.ErrX". TestCategoriesCoverSentinels parses
// those packages and fails on any Err* variable missing here, so a sentinel
// added below cannot reach callers without a category.
var knownSentinels = map[string]error{
	"mechanism.ErrInvalidEpsilon":    mechanism.ErrInvalidEpsilon,
	"mechanism.ErrInvalidTEMOptions": mechanism.ErrInvalidTEMOptions,
	"mechanism.ErrWordOutOfRange":    mechanism.ErrWordOutOfRange,
	"mechanism.ErrEmptyVocabulary":   mechanism.ErrEmptyVocabulary,
	"mechanism.ErrNoLists":           mechanism.ErrNoLists,
	"mechanism.ErrListMismatch":      mechanism.ErrListMismatch,
	"mechanism.ErrNilSource":         mechanism.ErrNilSource,
	"mechanism.ErrUnknownMechanism":  mechanism.ErrUnknownMechanism,
	"mechanism.ErrUnknownLevel":      mechanism.ErrUnknownLevel,
	"mechanism.ErrNotOffered":        mechanism.ErrNotOffered,
	"mechanism.ErrNoPreset":          mechanism.ErrNoPreset,
	"mechanism.ErrNoOutputs":         mechanism.ErrNoOutputs,
	"mechanism.ErrOutputsMismatch":   mechanism.ErrOutputsMismatch,
	"privatize.ErrNumbers":           privatize.ErrNumbers,
	"privatize.ErrClosed":            privatize.ErrClosed,
	"privatize.ErrEmptyText":         privatize.ErrEmptyText,
	"privatize.ErrTextTooLarge":      privatize.ErrTextTooLarge,
	"privatize.ErrOOVPolicy":         privatize.ErrOOVPolicy,
	"privatize.ErrNoUnitLoss":        privatize.ErrNoUnitLoss,
	"privatize.ErrMemoMismatch":      privatize.ErrMemoMismatch,
	"mechanism.ErrEpsilonSaturated":  mechanism.ErrEpsilonSaturated,
	"privatize.ErrInvalid":           privatize.ErrInvalid,
	"ledger.ErrBindingMismatch":      ledger.ErrBindingMismatch,
	"anchor.ErrMismatch":             anchor.ErrMismatch,
	"wva.ErrNotRegular":              wva.ErrNotRegular,
	"wva.ErrFileTooLarge":            wva.ErrFileTooLarge,
	"memo.ErrCorrupt":                memo.ErrCorrupt,
	"memo.ErrWrongSecret":            memo.ErrWrongSecret,
	"memo.ErrSecret":                 memo.ErrSecret,
	"memo.ErrInvalid":                memo.ErrInvalid,
	"memo.ErrFull":                   memo.ErrFull,
	"ledger.ErrBudgetExceeded":       ledger.ErrBudgetExceeded,
	"ledger.ErrCorrupt":              ledger.ErrCorrupt,
	"ledger.ErrInvalid":              ledger.ErrInvalid,
	"wva.ErrGammaMax":                wva.ErrGammaMax,
	"wva.ErrBadMagic":                wva.ErrBadMagic,
	"wva.ErrVersion":                 wva.ErrVersion,
	"wva.ErrChecksum":                wva.ErrChecksum,
	"wva.ErrTruncated":               wva.ErrTruncated,
	"wva.ErrCorrupt":                 wva.ErrCorrupt,
	"wva.ErrInvalid":                 wva.ErrInvalid,
}

// genuinelyInternal are the sentinels that may have no category: the root
// package's own correctness rules them out.
var genuinelyInternal = map[string]bool{
	"mechanism.ErrNilSource": true, // the facade always passes a source
}

// sentinelPackages returns the directories (relative to this one) of the
// module's packages whose sentinels must be classified: mechanism,
// privatize, ledger, wva, and every other module package this package
// imports.
func sentinelPackages(t *testing.T) map[string]string {
	t.Helper()
	const module = "github.com/wordveil/wordveil/"
	dirs := map[string]string{"mechanism": "internal/mechanism", "privatize": "internal/privatize", "ledger": "internal/ledger", "wva": "internal/wva"}
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if rel, ok := strings.CutPrefix(path, module); ok {
				dirs[filepath.Base(rel)] = rel
			}
		}
	}
	return dirs
}

// exportedErrVars parses dir's non-test files and returns its exported
// package-level variables named Err*, as "pkg.ErrX" (pkg: the qualifier).
func exportedErrVars(t *testing.T, pkg, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	var names []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					if id.IsExported() && strings.HasPrefix(id.Name, "Err") {
						names = append(names, pkg+"."+id.Name)
					}
				}
			}
		}
	}
	return names
}

// TestCategoriesCoverSentinels: every exported Err* variable of the
// packages below has a row in categories (unless genuinely internal), also
// when wrapped with context, and the wrapped sentinel stays visible.
func TestCategoriesCoverSentinels(t *testing.T) {
	var missing []string
	for pkg, dir := range sentinelPackages(t) {
		for _, name := range exportedErrVars(t, pkg, dir) {
			if _, ok := knownSentinels[name]; !ok {
				missing = append(missing, name)
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Errorf("sentinels without a category: %s\n"+
			"give each a row in categories (errors.go) and an entry in knownSentinels (errors_test.go)",
			strings.Join(missing, ", "))
	}
	all := []error{ErrInvalidConfig, ErrEmptyText, ErrTextTooLarge, ErrBudgetExceeded, ErrCorruptAsset, ErrCorruptState, ErrClosed}
	for name, sentinel := range knownSentinels {
		inTable := false
		for _, row := range categories {
			inTable = inTable || row.sentinel == sentinel
		}
		if !inTable && !genuinelyInternal[name] {
			t.Errorf("%s has no row in categories", name)
			continue
		}
		err := classify(fmt.Errorf("context: %w", sentinel))
		n := 0
		for _, c := range all {
			if errors.Is(err, c) {
				n++
			}
		}
		if (n == 0) != genuinelyInternal[name] || n > 1 {
			t.Errorf("%s matches %d categories (genuinely internal: %v)", name, n, genuinelyInternal[name])
		}
		if !errors.Is(err, sentinel) {
			t.Errorf("%s: the sentinel is lost", name)
		}
	}
}

// TestClassify checks representative errors, and that the prefix is added
// once.
func TestClassify(t *testing.T) {
	_, openErr := os.Open("/nonexistent/wv-missing")
	for _, tc := range []struct {
		name string
		err  error
		want error // nil: no category
	}{
		{"budget", fmt.Errorf("privatize: %w", ledger.ErrBudgetExceeded), ErrBudgetExceeded},
		{"corrupt ledger", ledger.ErrCorrupt, ErrCorruptState},
		{"corrupt memo", memo.ErrCorrupt, ErrCorruptState},
		{"memo replaced under its ledger", ledger.ErrBindingMismatch, ErrCorruptState},
		{"saturated ε", mechanism.ErrEpsilonSaturated, ErrInvalidConfig},
		{"bad asset", fmt.Errorf("wva: header: %w", wva.ErrBadMagic), ErrCorruptAsset},
		{"closed", fmt.Errorf("privatize: %w", privatize.ErrClosed), ErrClosed},
		{"empty text", privatize.ErrEmptyText, ErrEmptyText},
		{"too large", privatize.ErrTextTooLarge, ErrTextTooLarge},
		{"epsilon", mechanism.ErrInvalidEpsilon, ErrInvalidConfig},
		{"missing file", openErr, nil},
		{"errno (flock)", fmt.Errorf("ledger: %w", syscall.EIO), nil},
		{"unknown", errors.New("something nobody classified"), nil},
	} {
		err := classify(tc.err)
		for _, c := range []error{ErrInvalidConfig, ErrEmptyText, ErrTextTooLarge, ErrBudgetExceeded, ErrCorruptAsset, ErrCorruptState, ErrClosed} {
			if errors.Is(err, c) != (c == tc.want) {
				t.Errorf("%s: errors.Is(classify(%v), %v) = %v", tc.name, tc.err, c, !(c == tc.want))
			}
		}
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: the error below is lost", tc.name)
		}
		again := classify(classify(err))
		if msg := again.Error(); strings.Count(msg, "wordveil: ") != 1 || msg != "wordveil: "+tc.err.Error() {
			t.Errorf("%s: message %q, want the prefix once before %q", tc.name, msg, tc.err.Error())
		}
	}
	if classify(nil) != nil {
		t.Error("classify(nil) != nil")
	}
	_ = fs.ErrNotExist
}
