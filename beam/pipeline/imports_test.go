package pipeline

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sdkInternal is the prefix of the SDK's internal packages.
const sdkInternal = "github.com/wordveil/wordveil" + "/internal/"

// The Beam module is what a data team would write: no .go file of it,
// tests included, imports the SDK's internal packages (which Go allows
// here only through the replace directive); whatever it needs of the
// engine comes through package core.
func TestNoInternalImports(t *testing.T) {
	root := ".."
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		n++
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if strings.HasPrefix(p, sdkInternal) {
				t.Errorf("%s imports %s: the Beam module imports the SDK's public packages only", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("read %d .go files under %s, want the whole module", n, root)
	}
}
