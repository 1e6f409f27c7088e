package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"testing"
)

func parseFiles(t testing.TB, srcs ...string) ([]*ast.File, error) {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
	for _, src := range srcs {
		f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func TestCountFiles(t *testing.T) {
	tests := []struct {
		name  string
		srcs  []string
		want  counts
		undoc []string
	}{
		{"empty documented package", []string{"// Package p does.\npackage p"}, counts{}, nil},
		{"undocumented package", []string{"package p"}, counts{}, []string{"package p"}},
		{"funcs", []string{`// Package p.
package p
// F does.
func F() {}
func G() {}
func h() {}`}, counts{Funcs: 2}, []string{"func G"}},
		{"methods only of exported types, across files", []string{
			"// Package p.\npackage p\n// M.\nfunc (T) M() {}\nfunc (*T) N() {}\nfunc (u) M() {}\nfunc (T) m() {}",
			"package p\n// T.\ntype T struct{}\ntype u struct{}",
		}, counts{Types: 1, Methods: 2}, []string{"method T.N"}},
		{"generic receivers", []string{"// Package p.\npackage p\n// G.\ntype G[K comparable, V any] struct{}\n// M.\nfunc (g *G[K, V]) M() {}\nfunc (G[K, V]) N() {}"},
			counts{Types: 1, Methods: 2}, []string{"method G.N"}},
		{"grouped values: the group comment documents all", []string{`// Package p.
package p
// Sizes.
const (
	A = 1
	B, c = 2, 3
)
var (
	X = 1 // X is.
	Y = 2
	z = 3
)
var V, W int`}, counts{Consts: 2, Vars: 4}, []string{"var V", "var W", "var Y"}},
		{"struct fields", []string{`// Package p.
package p
// S.
type S struct {
	// A.
	A int
	B, c int // B.
	D    string
	io.Reader
	*Inner
	unexp
	pkg.Gen[int]
}
type s struct{ E int }`}, counts{Types: 1, Fields: 6}, []string{"field S.D", "field S.Gen", "field S.Inner", "field S.Reader"}},
		{"interface methods, embedded interfaces not counted", []string{`// Package p.
package p
// I.
type I interface {
	io.Reader
	// M.
	M()
	N() int
	m()
}
// C.
type C interface{ ~int | ~string }`}, counts{Types: 2, Methods: 2}, []string{"method I.N"}},
		{"grouped types", []string{`// Package p.
package p
type (
	// T.
	T int
	U int // U.
	V int
	w int
)`}, counts{Types: 3}, []string{"type V"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := parseFiles(t, tt.srcs...)
			if err != nil {
				t.Fatal(err)
			}
			r := countFiles(files)
			if r.Counts != tt.want {
				t.Errorf("counts = %+v, want %+v", r.Counts, tt.want)
			}
			if !reflect.DeepEqual(r.Undocumented, tt.undoc) {
				t.Errorf("undocumented = %q, want %q", r.Undocumented, tt.undoc)
			}
		})
	}
}

func TestNames(t *testing.T) {
	c := counts{Types: 1, Funcs: 2, Methods: 4, Vars: 8, Consts: 16, Fields: 32}
	if got := c.Names(); got != 31 {
		t.Errorf("Names = %d, want 31 (fields excluded)", got)
	}
	var sum counts
	sum.add(c)
	sum.add(c)
	if sum.Fields != 64 || sum.Names() != 62 {
		t.Errorf("add: %+v", sum)
	}
}

func TestPackageKind(t *testing.T) {
	tests := []struct {
		path, name, want string
	}{
		{"example.com/m/cmd/x", "main", "main"},
		{"example.com/m/internal/x", "x", "internal"},
		{"example.com/m/a/internal", "internal", "internal"},
		{"internal/x", "x", "internal"},
		{"example.com/m/internals", "internals", "public"},
		{"example.com/m/core", "core", "public"},
	}
	for _, tt := range tests {
		if got := packageKind(listedPackage{ImportPath: tt.path, Name: tt.name}); got != tt.want {
			t.Errorf("packageKind(%s) = %s, want %s", tt.path, got, tt.want)
		}
	}
}

// FuzzCountFiles: whatever Go source parses, counting neither panics nor
// reports more undocumented names than it counted (plus the package).
func FuzzCountFiles(f *testing.F) {
	f.Add("package p\nfunc (T[) M() {}")
	f.Add("package p\ntype T struct{ *a.B[C, D]; (E) }\nfunc (*(T)) M() {}")
	f.Add("package p\ntype I interface{ J; M() }\nvar A, B = 1, 2")
	f.Fuzz(func(t *testing.T, src string) {
		files, err := parseFiles(t, src)
		if err != nil {
			return
		}
		r := countFiles(files)
		if len(r.Undocumented) > r.Counts.Names()+r.Counts.Fields+1 {
			t.Errorf("%d undocumented of %+v", len(r.Undocumented), r.Counts)
		}
	})
}
