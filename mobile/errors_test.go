package mobile

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/wordveil/wordveil/core"
)

// TestCodeOf checks the classification of representative errors.
func TestCodeOf(t *testing.T) {
	_, openErr := os.Open("/nonexistent/wordveil")
	for _, tc := range []struct {
		name string
		err  error
		code string
	}{
		{"budget", fmt.Errorf("x: %w", core.ErrBudgetExceeded), CodeBudgetExceeded},
		{"corrupt state", core.ErrCorruptState, CodeCorruptState},
		{"invalid", core.ErrInvalidConfig, CodeInvalidArgument},
		{"bad asset", fmt.Errorf("x: %w", core.ErrCorruptAsset), CodeCorruptAsset},
		{"closed", core.ErrClosed, CodeClosed},
		{"empty text", core.ErrEmptyText, CodeEmptyText},
		{"too large", core.ErrTextTooLarge, CodeTextTooLarge},
		{"missing file", openErr, CodeIO},
		{"not exist", fs.ErrNotExist, CodeIO},
		{"permission", fmt.Errorf("x: %w", fs.ErrPermission), CodeIO},
		{"exists", fs.ErrExist, CodeIO},
		{"path error", &fs.PathError{Op: "read", Path: "p", Err: errors.New("device gone")}, CodeIO},
		{"link error", &os.LinkError{Op: "rename", Old: "a", New: "b", Err: errors.New("x")}, CodeIO},
		{"errno (flock)", fmt.Errorf("ledger: %w", syscall.EIO), CodeIO},
		{"unknown", errors.New("something nobody classified"), CodeInternal}, // no longer WV_IO
	} {
		if got := codeOf(tc.err); got != tc.code {
			t.Errorf("%s: codeOf(%v) = %s, want %s", tc.name, tc.err, got, tc.code)
		}
	}
}

// TestPrefixOnce: the code is added once however often wrap is applied, and
// the message keeps the error below unchanged after it.
func TestPrefixOnce(t *testing.T) {
	base := fmt.Errorf("wordveil: header: %w", core.ErrCorruptAsset)
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
	if !errors.Is(wrap(once), core.ErrCorruptAsset) {
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

// TestErrorCodesDocumented: docs/MOBILE.md's table of error codes lists
// every Code constant of errors.go (WV_INTERNAL was once left out).
func TestErrorCodesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/MOBILE.md")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			for i, name := range v.Names {
				if !strings.HasPrefix(name.Name, "Code") || i >= len(v.Values) {
					continue
				}
				lit, ok := v.Values[i].(*ast.BasicLit)
				if !ok {
					continue
				}
				code, _ := strconv.Unquote(lit.Value)
				n++
				if !strings.Contains(string(doc), "| `"+code+"` |") {
					t.Errorf("docs/MOBILE.md's error codes lack %s (%s)", code, name.Name)
				}
			}
		}
	}
	if n < 9 {
		t.Fatalf("found %d Code constants in errors.go", n)
	}
}
