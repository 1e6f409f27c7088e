package mobile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exportedAPI parses the package's non-test files and returns every
// exported package-level function ("Name") and every exported method of an
// exported type ("(*T).Name" or "T.Name"): what gobind binds. Reflection
// cannot list package-level functions, hence the parser.
func exportedAPI(t *testing.T) map[string]*ast.FuncDecl {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	api := map[string]*ast.FuncDecl{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			key := fd.Name.Name
			if fd.Recv != nil {
				typ, star := fd.Recv.List[0].Type, ""
				if s, ok := typ.(*ast.StarExpr); ok {
					typ, star = s.X, "*"
				}
				id, ok := typ.(*ast.Ident)
				if !ok {
					t.Fatalf("%s: unexpected receiver type %T", fd.Name.Name, typ)
				}
				if !id.IsExported() {
					continue // not bound
				}
				key = "(" + star + id.Name + ")." + fd.Name.Name
				if star == "" {
					key = id.Name + "." + fd.Name.Name
				}
			}
			api[key] = fd
		}
	}
	if len(api) < 10 {
		t.Fatalf("found only %d exported functions and methods: %v", len(api), slices.Sorted(maps.Keys(api)))
	}
	return api
}

// zeroPrivatizers are the handles gobind lets Java and Swift make without
// an Open… function: a nil pointer and a pointer to a zero value.
func zeroPrivatizers() map[string]*Privatizer {
	return map[string]*Privatizer{"nil": nil, "zero": {}}
}

// wantCode fails unless err is non-nil and carries code.
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %s", what, code)
		return
	}
	if got := ErrCode(err.Error()); got != code {
		t.Errorf("%s: code %q, want %s (message %q)", what, got, code, err)
	}
}

// zeroCalls calls every exported function and method with zero, nil and
// empty arguments, methods on each zeroPrivatizers receiver, and checks the
// documented result: a coded error or the documented zero value. A panic
// fails the test (it is not recovered here).
var zeroCalls = map[string]func(t *testing.T){
	"OpenPrivatizer": func(t *testing.T) {
		// nil and zero-value configs mean the defaults: a working privatizer.
		for _, cfg := range []*Config{nil, {}, {MemoSecret: []byte{}}} {
			p, err := OpenPrivatizer(cfg)
			if err != nil || p.p == nil {
				t.Fatalf("OpenPrivatizer(%+v): %v", cfg, err)
			}
			if r, err := p.Privatize("hello"); err != nil || r.Text == "" {
				t.Fatalf("OpenPrivatizer(%+v).Privatize: %v", cfg, err)
			}
		}
	},
	"OpenPrivatizerFromAsset": func(t *testing.T) {
		for _, cfg := range []*Config{nil, {}} {
			for _, b := range [][]byte{nil, {}} {
				p, err := OpenPrivatizerFromAsset(b, cfg)
				wantCode(t, "OpenPrivatizerFromAsset(empty)", err, CodeCorruptAsset)
				if p != nil {
					t.Error("a privatizer came back with the error")
				}
			}
		}
	},
	"OpenPrivatizerFromFile": func(t *testing.T) {
		for _, cfg := range []*Config{nil, {}} {
			p, err := OpenPrivatizerFromFile("", cfg)
			wantCode(t, `OpenPrivatizerFromFile("")`, err, CodeIO)
			if p != nil {
				t.Error("a privatizer came back with the error")
			}
		}
	},
	"ResetState": func(t *testing.T) {
		// Nothing to reset: no directory.
		for _, cfg := range []*Config{nil, {}} {
			wantCode(t, "ResetState(empty)", ResetState(cfg), CodeInvalidArgument)
		}
	},
	"NewConfig": func(t *testing.T) {
		if c := NewConfig(); c == nil || c.Mechanism != "brr" || c.Preset != "balanced" || c.OOV != "random-word" || c.MemoSecret != nil {
			t.Errorf("NewConfig() = %+v", c)
		}
	},
	"ErrCode": func(t *testing.T) {
		for _, m := range []string{"", "WV_IO", "WV_IO:", ":"} {
			want := ""
			if m == "WV_IO:" {
				want = CodeIO
			}
			if got := ErrCode(m); got != want {
				t.Errorf("ErrCode(%q) = %q, want %q", m, got, want)
			}
		}
	},
	"SetMemoryLimit": func(t *testing.T) {
		// 0 only reads: a limit of 0 would make the runtime collect without pause.
		before := SetMemoryLimit(-1)
		if got := SetMemoryLimit(0); got != before {
			t.Errorf("SetMemoryLimit(0) = %d, want %d", got, before)
		}
		if after := SetMemoryLimit(-1); after != before {
			t.Errorf("SetMemoryLimit(0) changed the limit from %d to %d", before, after)
		}
	},
	"FreeOSMemory": func(t *testing.T) { FreeOSMemory() },
	"Version": func(t *testing.T) {
		if Version() == "" {
			t.Error(`Version() = ""`)
		}
	},
	"(*Privatizer).Privatize": func(t *testing.T) {
		for name, p := range zeroPrivatizers() {
			for _, text := range []string{"", "hello"} {
				r, err := p.Privatize(text)
				wantCode(t, name+".Privatize", err, CodeInvalidArgument)
				if r != nil {
					t.Errorf("%s.Privatize(%q): a Result came back with the error", name, text)
				}
			}
		}
	},
	"(*Privatizer).Deniability": func(t *testing.T) {
		for name, p := range zeroPrivatizers() {
			for _, a := range [][2]int64{{0, 0}, {1, 1}} {
				d, err := p.Deniability(a[0], a[1])
				wantCode(t, name+".Deniability", err, CodeInvalidArgument)
				if d != nil {
					t.Errorf("%s.Deniability(%d, %d): a Deniability came back with the error", name, a[0], a[1])
				}
			}
		}
	},
	"(*Privatizer).Epsilon": func(t *testing.T) {
		for name, p := range zeroPrivatizers() {
			if got := p.Epsilon(); got != 0 {
				t.Errorf("%s.Epsilon() = %v, want 0", name, got)
			}
		}
	},
	"(*Privatizer).Metric": func(t *testing.T) {
		for name, p := range zeroPrivatizers() {
			if got := p.Metric(); got != "" {
				t.Errorf("%s.Metric() = %q, want \"\"", name, got)
			}
		}
	},
	"(*Privatizer).Close": func(t *testing.T) {
		for name, p := range zeroPrivatizers() {
			for i := 0; i < 2; i++ {
				if err := p.Close(); err != nil {
					t.Errorf("%s.Close() #%d: %v, want nil (nothing to release)", name, i+1, err)
				}
			}
			if p != nil {
				_, err := p.Privatize("hello")
				wantCode(t, name+".Privatize after Close", err, CodeClosed)
			}
		}
	},
	"(*Privatizer).WordCost": func(t *testing.T) {
		for name, p := range zeroPrivatizers() {
			if got := p.WordCost(); got != 0 {
				t.Errorf("%s.WordCost() = %v, want 0", name, got)
			}
		}
	},
	"(*Privatizer).VocabularySize": func(t *testing.T) {
		for name, p := range zeroPrivatizers() {
			if got := p.VocabularySize(); got != 0 {
				t.Errorf("%s.VocabularySize() = %d, want 0", name, got)
			}
		}
	},
}

// TestZeroValuesNeverPanic: every exported function and method, found by
// parsing the package, has a zeroCalls entry, and each entry passes. A
// method added without an entry fails here.
func TestZeroValuesNeverPanic(t *testing.T) {
	api := exportedAPI(t)
	for _, name := range slices.Sorted(maps.Keys(api)) {
		call, ok := zeroCalls[name]
		if !ok {
			t.Errorf("%s is exported but has no zeroCalls entry: add one that calls it on zero values", name)
			continue
		}
		t.Run(name, call)
	}
	for name := range zeroCalls {
		if _, ok := api[name]; !ok {
			t.Errorf("zeroCalls has %s, which the package does not export", name)
		}
	}
}

// guards are the recovering functions of errors.go an exported body may
// defer first.
var guards = map[string]bool{"guard": true, "guardValue": true, "guardNone": true}

// TestEveryExportedBodyStartsWithGuard checks statically that every
// exported function and method begins with `defer guard(&<error result>)`,
// `defer guardValue(&<result>, zero)` or `defer guardNone()` (for one
// without results), so that removing a recover fails even where today's
// code could not panic; and that each guard calls recover itself.
func TestEveryExportedBodyStartsWithGuard(t *testing.T) {
	api := exportedAPI(t)
	for _, name := range slices.Sorted(maps.Keys(api)) {
		if msg := guardProblem(api[name]); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !guards[fd.Name.Name] {
			continue
		}
		found++
		recovers := false
		for _, st := range fd.Body.List { // a direct call: recover in a nested closure would not stop the panic
			ast.Inspect(st, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				if c, ok := n.(*ast.CallExpr); ok {
					if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "recover" {
						recovers = true
					}
				}
				return true
			})
		}
		if !recovers {
			t.Errorf("guard %s does not call recover", fd.Name.Name)
		}
	}
	if found != len(guards) {
		t.Errorf("found %d of the %d guards in errors.go", found, len(guards))
	}
}

// guardProblem returns "" if fd's body starts with a guard that covers its
// results, else what is wrong.
func guardProblem(fd *ast.FuncDecl) string {
	if fd.Body == nil || len(fd.Body.List) == 0 {
		return "empty body"
	}
	ds, ok := fd.Body.List[0].(*ast.DeferStmt)
	if !ok {
		return "the first statement is not a deferred guard"
	}
	fun := ds.Call.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok { // guardValue[T](...)
		fun = ix.X
	}
	id, ok := fun.(*ast.Ident)
	if !ok || !guards[id.Name] {
		return "the first statement defers something other than guard, guardValue or guardNone"
	}
	var results []string // named results; an unnamed one cannot be guarded
	var lastType ast.Expr
	if fd.Type.Results != nil {
		for _, r := range fd.Type.Results.List {
			if len(r.Names) == 0 {
				return "unnamed result: name it so that the guard can set it"
			}
			for _, n := range r.Names {
				results = append(results, n.Name)
			}
			lastType = r.Type
		}
	}
	target := func() string { // the x of the guard's first argument &x
		if len(ds.Call.Args) == 0 {
			return ""
		}
		if u, ok := ds.Call.Args[0].(*ast.UnaryExpr); ok && u.Op == token.AND {
			if x, ok := u.X.(*ast.Ident); ok {
				return x.Name
			}
		}
		return ""
	}()
	switch id.Name {
	case "guard":
		if et, ok := lastType.(*ast.Ident); !ok || et.Name != "error" || target != results[len(results)-1] {
			return "defer guard(&err) needs err to be the last result, of type error"
		}
	case "guardValue":
		if len(results) != 1 || target != results[0] {
			return "defer guardValue(&r, zero) needs r to be the only result"
		}
	case "guardNone":
		if len(results) != 0 {
			return "guardNone is for functions without results: use guard or guardValue"
		}
	}
	return ""
}
