package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// listed is the part of `go list -json` the check reads.
type listed struct {
	ImportPath   string
	Name         string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Error        *struct{ Err string }
}

// check returns every violation of the layers by pkgs (packages of module),
// sorted; none means the code matches the drawing. It checks that every
// package is in exactly one layer, that every layer package exists, and
// that each import, of the code and of its tests, goes where its layer
// allows.
func check(module string, pkgs []listed) []string {
	var bad []string
	add := func(format string, a ...any) { bad = append(bad, fmt.Sprintf(format, a...)) }

	layerOf := map[string]*layer{}
	for i := range layers {
		l := &layers[i]
		for _, p := range l.pkgs {
			if o, ok := layerOf[p.path]; ok {
				add("%s is in two layers, %s and %s", p.path, o.name, l.name)
			}
			layerOf[p.path] = l
		}
	}
	byName := map[string]*layer{}
	for i := range layers {
		byName[layers[i].name] = &layers[i]
	}

	rel := func(path string) (string, bool) {
		if path == module {
			return ".", true
		}
		r, ok := strings.CutPrefix(path, module+"/")
		return r, ok
	}

	seen := map[string]bool{}
	isMain := map[string]bool{}
	for _, p := range pkgs {
		r, ok := rel(p.ImportPath)
		if !ok {
			add("%s is not in module %s", p.ImportPath, module)
			continue
		}
		seen[r] = true
		isMain[r] = p.Name == "main"
		if p.Error != nil {
			add("%s: go list: %s", r, p.Error.Err)
		}
		if layerOf[r] == nil {
			add("%s is in no layer: place it in internal/tools/layers/layers.go", r)
		}
	}
	for path := range layerOf {
		if !seen[path] {
			add("%s is in the layers but not in the module: remove it from internal/tools/layers/layers.go", path)
		}
	}

	allowed := func(from *layer, to *layer, test bool) bool {
		if from == to && from.self {
			return true
		}
		if slices.Contains(from.may, to.name) {
			return true
		}
		return test && (from == to || slices.Contains(from.tests, to.name))
	}
	excepted := func(from, to string) bool {
		return slices.ContainsFunc(exceptions, func(e exception) bool { return e.from == from && e.to == to })
	}

	for _, p := range pkgs {
		from, ok := rel(p.ImportPath)
		fl := layerOf[from]
		if !ok || fl == nil {
			continue
		}
		edges := []struct {
			imports []string
			test    bool
		}{{p.Imports, false}, {p.TestImports, true}, {p.XTestImports, true}}
		for _, e := range edges {
			for _, imp := range e.imports {
				to, ok := rel(imp)
				if !ok || to == from {
					continue // outside the module, or an external test of itself
				}
				tl := layerOf[to]
				if tl == nil {
					continue // reported above as in no layer
				}
				who, verb := from, "imports"
				if e.test {
					who, verb = "tests of "+from, "import"
				}
				if !allowed(fl, tl, e.test) && !(!e.test && excepted(from, to)) {
					add("%s (%s) %s %s (%s): %s", who, fl.name, verb, to, tl.name, rule(fl, e.test))
				}
				if e.test {
					continue
				}
				if tl.mainsOnly && !isMain[from] && fl != tl {
					add("%s (%s) imports %s (%s): only main packages and tests may import %s", from, fl.name, to, tl.name, tl.name)
				}
				if only, ok := restricted[to]; ok && !slices.Contains(only, from) {
					add("%s imports %s: outside tests only %s may", from, to, strings.Join(only, ", "))
				}
			}
		}
	}
	sort.Strings(bad)
	return slices.Compact(bad)
}

// rule says in words what a layer's code (or its tests) may import.
func rule(l *layer, test bool) string {
	may := slices.Clone(l.may)
	if l.self {
		may = append(may, l.name)
	}
	if test {
		may = append(may, l.tests...)
		if !l.self {
			may = append(may, l.name)
		}
	}
	if len(may) == 0 {
		return l.name + " may import nothing of the module"
	}
	who := l.name
	if test {
		who = "tests of " + l.name
	}
	return who + " may import only " + strings.Join(may, ", ")
}
