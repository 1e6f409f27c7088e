package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
)

// counts is one package's exported API by kind of declaration. Names()
// totals the package-level names and the methods; struct fields are
// counted apart (Fields), because a struct's fields are part of its type
// rather than names a caller looks up on their own.
type counts struct {
	Types   int // exported type names
	Funcs   int // exported package-level functions
	Methods int // exported methods of exported types, interface methods included
	Vars    int // exported package-level variables
	Consts  int // exported constants
	Fields  int // exported fields (embedded ones too) of exported struct types
}

// Names is the number of exported names, fields excluded.
func (c counts) Names() int { return c.Types + c.Funcs + c.Methods + c.Vars + c.Consts }

func (c *counts) add(o counts) {
	c.Types += o.Types
	c.Funcs += o.Funcs
	c.Methods += o.Methods
	c.Vars += o.Vars
	c.Consts += o.Consts
	c.Fields += o.Fields
}

// packageReport is one package's counts and its exported identifiers that
// have no doc comment, as "kind Name" ("method T.M", "field T.F"), led by
// "package name" when no file has a package comment.
type packageReport struct {
	Path, Kind   string
	Counts       counts
	Undocumented []string
}

// countPackage parses the files of one package and counts them together,
// since a method may be declared in another file than its type.
func countPackage(paths []string) (packageReport, error) {
	fset := token.NewFileSet()
	files := make([]*ast.File, 0, len(paths))
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return packageReport{}, err
		}
		files = append(files, f)
	}
	return countFiles(files), nil
}

// countFiles counts the exported declarations of one package's files.
func countFiles(files []*ast.File) packageReport {
	var r packageReport
	missing := func(kind, name string) { r.Undocumented = append(r.Undocumented, kind+" "+name) }
	// Which type names are exported is known before any method is looked
	// at, in whatever order the files come.
	exportedTypes := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					if ts := s.(*ast.TypeSpec); ts.Name.IsExported() {
						exportedTypes[ts.Name.Name] = true
					}
				}
			}
		}
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					r.Counts.Funcs++
					if d.Doc == nil {
						missing("func", d.Name.Name)
					}
					continue
				}
				recv := receiverType(d.Recv)
				if !exportedTypes[recv] {
					continue
				}
				r.Counts.Methods++
				if d.Doc == nil {
					missing("method", recv+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				countGenDecl(d, &r.Counts, missing)
			}
		}
	}
	sort.Strings(r.Undocumented)
	documented := false
	for _, f := range files {
		documented = documented || f.Doc != nil
	}
	if !documented && len(files) > 0 {
		// First: the package comment is the one a reader sees first.
		r.Undocumented = append([]string{"package " + files[0].Name.Name}, r.Undocumented...)
	}
	return r
}

// countGenDecl counts a type, var or const declaration. A spec is documented
// by its own comment (above it, or at the end of its line) or by the
// declaration's comment, which go doc shows above a whole group.
func countGenDecl(g *ast.GenDecl, c *counts, missing func(kind, name string)) {
	for _, s := range g.Specs {
		switch s := s.(type) {
		case *ast.TypeSpec:
			if !s.Name.IsExported() {
				continue
			}
			c.Types++
			if s.Doc == nil && s.Comment == nil && g.Doc == nil {
				missing("type", s.Name.Name)
			}
			switch t := s.Type.(type) {
			case *ast.StructType:
				countFields(s.Name.Name, t.Fields, false, &c.Fields, missing)
			case *ast.InterfaceType:
				countFields(s.Name.Name, t.Methods, true, &c.Methods, missing)
			}
		case *ast.ValueSpec:
			kind, n := "var", &c.Vars
			if g.Tok == token.CONST {
				kind, n = "const", &c.Consts
			}
			for _, name := range s.Names {
				if !name.IsExported() {
					continue
				}
				*n++
				if s.Doc == nil && s.Comment == nil && g.Doc == nil {
					missing(kind, name.Name)
				}
			}
		}
	}
}

// countFields counts the exported fields of a struct (iface false) or the
// exported methods of an interface (iface true) of the exported type typ.
// An embedded struct field is named after its type; an interface's embedded
// interfaces and type constraints add nothing here (their methods are
// counted where they are declared).
func countFields(typ string, list *ast.FieldList, iface bool, n *int, missing func(kind, name string)) {
	if list == nil {
		return
	}
	kind := "field"
	if iface {
		kind = "method"
	}
	for _, f := range list.List {
		names := f.Names
		if len(names) == 0 {
			if iface {
				continue
			}
			names = []*ast.Ident{embeddedName(f.Type)}
		}
		for _, name := range names {
			if name == nil || !name.IsExported() {
				continue
			}
			*n++
			if f.Doc == nil && f.Comment == nil {
				missing(kind, typ+"."+name.Name)
			}
		}
	}
}

// embeddedName is the name an embedded field takes from its type: T, *T,
// pkg.T, T[P] all give T. Nil for a type that cannot be embedded.
func embeddedName(t ast.Expr) *ast.Ident {
	for {
		switch e := t.(type) {
		case *ast.Ident:
			return e
		case *ast.StarExpr:
			t = e.X
		case *ast.SelectorExpr:
			return e.Sel
		case *ast.IndexExpr:
			t = e.X
		case *ast.IndexListExpr:
			t = e.X
		case *ast.ParenExpr:
			t = e.X
		default:
			return nil
		}
	}
}

// receiverType is the type name of a method's receiver: T for T, *T, T[P]
// and *T[P, Q]; "" for a malformed receiver.
func receiverType(recv *ast.FieldList) string {
	if recv == nil || len(recv.List) == 0 {
		return ""
	}
	if id := embeddedName(recv.List[0].Type); id != nil {
		return id.Name
	}
	return ""
}
