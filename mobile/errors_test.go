package mobile

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

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/ledger"
	"github.com/wordveil/wordveil/mechanism"
	"github.com/wordveil/wordveil/memo"
	"github.com/wordveil/wordveil/privatize"
)

// knownSentinels names the exported sentinel errors of the packages below
// mobile, as "pkg.ErrX". TestCodeTableCoversSentinels parses those
// packages and fails on any Err* variable missing here, so a sentinel added
// below cannot reach apps unclassified (as WV_INTERNAL).
var knownSentinels = map[string]error{
	"mechanism.ErrNoTEMLists":         mechanism.ErrNoTEMLists,
	"mechanism.ErrInvalidEpsilon":     mechanism.ErrInvalidEpsilon,
	"mechanism.ErrInvalidGamma":       mechanism.ErrInvalidGamma,
	"mechanism.ErrInvalidBeta":        mechanism.ErrInvalidBeta,
	"mechanism.ErrWordOutOfRange":     mechanism.ErrWordOutOfRange,
	"mechanism.ErrEmptyVocabulary":    mechanism.ErrEmptyVocabulary,
	"mechanism.ErrNoLists":            mechanism.ErrNoLists,
	"mechanism.ErrListMismatch":       mechanism.ErrListMismatch,
	"mechanism.ErrNilSource":          mechanism.ErrNilSource,
	"mechanism.ErrUnknownMechanism":   mechanism.ErrUnknownMechanism,
	"mechanism.ErrUnknownLevel":       mechanism.ErrUnknownLevel,
	"mechanism.ErrNoPreset":           mechanism.ErrNoPreset,
	"mechanism.ErrNoOutputs":          mechanism.ErrNoOutputs,
	"mechanism.ErrOutputsMismatch":    mechanism.ErrOutputsMismatch,
	"mechanism.ErrNoCusTextSets":      mechanism.ErrNoCusTextSets,
	"mechanism.ErrCusTextSetExcluded": mechanism.ErrCusTextSetExcluded,
	"privatize.ErrNumbers":            privatize.ErrNumbers,
	"privatize.ErrClosed":             privatize.ErrClosed,
	"privatize.ErrEmptyText":          privatize.ErrEmptyText,
	"privatize.ErrTextTooLarge":       privatize.ErrTextTooLarge,
	"privatize.ErrOOVPolicy":          privatize.ErrOOVPolicy,
	"privatize.ErrNoUnitLoss":         privatize.ErrNoUnitLoss,
	"privatize.ErrMemoMismatch":       privatize.ErrMemoMismatch,
	"mechanism.ErrEpsilonSaturated":   mechanism.ErrEpsilonSaturated,
	"privatize.ErrInvalidSize":        privatize.ErrInvalidSize,
	"ledger.ErrBindingMismatch":       ledger.ErrBindingMismatch,
	"wva.ErrNotRegular":               wva.ErrNotRegular,
	"wva.ErrFileTooLarge":             wva.ErrFileTooLarge,
	"memo.ErrCorrupt":                 memo.ErrCorrupt,
	"memo.ErrWrongSecret":             memo.ErrWrongSecret,
	"memo.ErrSecret":                  memo.ErrSecret,
	"memo.ErrInvalid":                 memo.ErrInvalid,
	"memo.ErrFull":                    memo.ErrFull,
	"ledger.ErrBudgetExceeded":        ledger.ErrBudgetExceeded,
	"ledger.ErrCorrupt":               ledger.ErrCorrupt,
	"ledger.ErrInvalid":               ledger.ErrInvalid,
	"wva.ErrGammaMax":                 wva.ErrGammaMax,
	"wva.ErrBadMagic":                 wva.ErrBadMagic,
	"wva.ErrVersion":                  wva.ErrVersion,
	"wva.ErrChecksum":                 wva.ErrChecksum,
	"wva.ErrTruncated":                wva.ErrTruncated,
	"wva.ErrCorrupt":                  wva.ErrCorrupt,
	"wva.ErrInvalid":                  wva.ErrInvalid,
}

// genuinelyInternal are the sentinels that may map to WV_INTERNAL: the
// facade's own correctness rules them out.
var genuinelyInternal = map[string]bool{
	"mechanism.ErrNilSource": true, // the facade always passes a source
}

// sentinelPackages returns the directories (relative to this one) of the
// module's packages whose sentinels must be classified: mechanism, privatize, ledger,
// binaryembed/wva, and every other module package this package imports.
func sentinelPackages(t *testing.T) map[string]string {
	t.Helper()
	const module = "github.com/wordveil/wordveil/"
	dirs := map[string]string{"mechanism": "../mechanism", "privatize": "../privatize", "ledger": "../ledger", "wva": "../binaryembed/wva"}
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
				dirs[filepath.Base(rel)] = "../" + rel
			}
		}
	}
	return dirs
}

// exportedErrVars parses dir's non-test files and returns its exported
// package-level variables named Err*, as "pkg.ErrX" (pkg: the qualifier).
func exportedErrVars(t *testing.T, pkg, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
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

// TestCodeTableCoversSentinels: every exported Err* variable of the
// packages below has a row in codeTable with a code other than WV_INTERNAL
// (unless genuinely internal), also when wrapped with context.
func TestCodeTableCoversSentinels(t *testing.T) {
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
		t.Errorf("sentinels without a code: %s\n"+
			"give each a row in codeTable (errors.go) and an entry in knownSentinels (errors_test.go)",
			strings.Join(missing, ", "))
	}
	for name, sentinel := range knownSentinels {
		inTable := false
		for _, row := range codeTable {
			inTable = inTable || row.sentinel == sentinel
		}
		if !inTable {
			t.Errorf("%s has no row in codeTable", name)
			continue
		}
		code := codeOf(fmt.Errorf("context: %w", sentinel))
		if (code == CodeInternal) != genuinelyInternal[name] {
			t.Errorf("%s maps to %s (genuinely internal: %v)", name, code, genuinelyInternal[name])
		}
	}
}

// TestCodeOf checks the classification of representative errors.
func TestCodeOf(t *testing.T) {
	_, openErr := os.Open("/nonexistent/wordveil")
	for _, tc := range []struct {
		name string
		err  error
		code string
	}{
		{"budget", fmt.Errorf("privatize: %w", ledger.ErrBudgetExceeded), CodeBudgetExceeded},
		{"corrupt ledger", ledger.ErrCorrupt, CodeCorruptState},
		{"corrupt memo", memo.ErrCorrupt, CodeCorruptState},
		{"memo replaced under its ledger", ledger.ErrBindingMismatch, CodeCorruptState},
		{"saturated ε", mechanism.ErrEpsilonSaturated, CodeInvalidArgument},
		{"bad asset", fmt.Errorf("wva: header: %w", wva.ErrBadMagic), CodeCorruptAsset},
		{"closed", fmt.Errorf("text privatizer: %w", privatize.ErrClosed), CodeClosed},
		{"empty text", privatize.ErrEmptyText, CodeEmptyText},
		{"too large", privatize.ErrTextTooLarge, CodeTextTooLarge},
		{"epsilon", mechanism.ErrInvalidEpsilon, CodeInvalidArgument},
		{"missing file", openErr, CodeIO},
		{"not exist", fs.ErrNotExist, CodeIO},
		{"permission", fmt.Errorf("x: %w", fs.ErrPermission), CodeIO},
		{"exists", fs.ErrExist, CodeIO},
		{"path error", &fs.PathError{Op: "read", Path: "p", Err: errors.New("device gone")}, CodeIO},
		{"link error", &os.LinkError{Op: "rename", Old: "a", New: "b", Err: errors.New("x")}, CodeIO},
		{"errno (flock)", fmt.Errorf("ledger: %w", syscall.EIO), CodeIO},
		{"unknown", errors.New("something nobody classified"), CodeInternal}, // no longer WV_IO
		{"nil source", mechanism.ErrNilSource, CodeInternal},
	} {
		if got := codeOf(tc.err); got != tc.code {
			t.Errorf("%s: codeOf(%v) = %s, want %s", tc.name, tc.err, got, tc.code)
		}
	}
}

// TestPrefixOnce: the code is added once however often wrap is applied, and
// the message keeps the error below unchanged after it.
func TestPrefixOnce(t *testing.T) {
	base := fmt.Errorf("wva: header: %w", wva.ErrBadMagic)
	once := wrap(base)
	for i, err := range []error{wrap(once), wrap(wrap(once)), wrap(invalid("x %d", 1)), wrap(errNotOpened)} {
		msg := err.Error()
		code := ErrCode(msg)
		if code == "" || strings.Count(msg, code+":") != 1 {
			t.Errorf("case %d: %q carries its code %d times", i, msg, strings.Count(msg, code+":"))
		}
	}
	if want := CodeCorruptAsset + ": " + base.Error(); once.Error() != want {
		t.Errorf("wrap: %q, want %q", once, want)
	}
	if !errors.Is(wrap(once), wva.ErrBadMagic) {
		t.Error("the sentinel is lost")
	}
	if wrap(nil) != nil {
		t.Error("wrap(nil) != nil")
	}
}

// TestGuards: the recovering guards turn a panic into WV_INTERNAL or the
// given zero value. (No exported function panics on zero values any more,
// so the guards are exercised here directly.)
func TestGuards(t *testing.T) {
	errFn := func() (err error) {
		defer guard(&err)
		var m map[string]int
		//lint:ignore SA5000 the panic is the point: guard must recover it
		m["x"] = 1 // panics: nil map
		return nil
	}
	if err := errFn(); err == nil || ErrCode(err.Error()) != CodeInternal || !strings.Contains(err.Error(), "recovered panic") {
		t.Errorf("guard: %v", err)
	}
	valFn := func() (s string) {
		defer guardValue(&s, "zero")
		s = "partial"
		panic("boom")
	}
	if got := valFn(); got != "zero" {
		t.Errorf("guardValue: %q", got)
	}
	noneFn := func() {
		defer guardNone()
		panic("boom")
	}
	noneFn() // reaching the next line is the check
	noPanic := func() (s string) {
		defer guardValue(&s, "zero")
		return "kept"
	}
	if got := noPanic(); got != "kept" { // negative control: no panic, no reset
		t.Errorf("guardValue without a panic: %q", got)
	}
}
