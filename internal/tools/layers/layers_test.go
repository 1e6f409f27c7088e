package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/wordveil/wordveil"

// root is the module's directory: this package is internal/tools/layers.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	return dir
}

// builds are the platforms and tags whose files are listed, so that an
// import in a file built only for arm64, 32-bit, a non-unix system (the
// module's build constraints: unix, amd64, arm64, purego, calibrate) or
// under a tag counts too.
var builds = []struct{ goos, goarch, tags string }{
	{"linux", "amd64", ""},
	{"linux", "arm64", ""},
	{"linux", "arm", ""},
	{"darwin", "arm64", ""},
	{"windows", "amd64", ""},
	{"linux", "amd64", "purego,calibrate"},
}

// goList returns `go list -e -json ./...` of the module for one build.
func goList(t *testing.T, dir, goos, goarch, tags string) []listed {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-tags="+tags,
		"-json=ImportPath,Name,Imports,TestImports,XTestImports,Error", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list (%s/%s %s): %v\n%s", goos, goarch, tags, err, stderr.Bytes())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list (%s/%s) listed %d packages", goos, goarch, len(pkgs))
	}
	return pkgs
}

// TestModuleLayers holds the module to layers.go: every package in one
// layer, every import (of the code and of its tests, on every listed
// platform) allowed by its layer.
func TestModuleLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is not on PATH: the layer test needs go list")
	}
	dir := root(t)
	for _, b := range builds {
		name := b.goos + "/" + b.goarch
		if b.tags != "" {
			name += " tags=" + b.tags
		}
		t.Run(name, func(t *testing.T) {
			for _, v := range check(module, goList(t, dir, b.goos, b.goarch, b.tags)) {
				t.Error(v)
			}
		})
	}
}

// TestReadmeLayout: the README's Layout block is this command's drawing,
// byte for byte (make layout rewrites it).
func TestReadmeLayout(t *testing.T) {
	path := filepath.Join(root(t), "README.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := splice(string(doc), draw())
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	if want != string(doc) {
		t.Error("README.md's Layout block differs from internal/tools/layers' drawing: run make layout")
	}
}

// The checker on made-up graphs: each case is a violation the module test
// must catch (or, for the controls, must not report).
func TestCheck(t *testing.T) {
	abs := func(path string) string {
		if path == "." {
			return module
		}
		return module + "/" + path
	}
	p := func(path string, imports ...string) listed {
		l := listed{ImportPath: abs(path), Name: "x"}
		for _, i := range imports {
			l.Imports = append(l.Imports, abs(i))
		}
		return l
	}
	withTests := func(l listed, imports ...string) listed {
		for _, i := range imports {
			l.XTestImports = append(l.XTestImports, abs(i))
		}
		return l
	}
	main := func(l listed) listed { l.Name = "main"; return l }
	cases := []struct {
		name string
		pkg  listed
		want string // a substring of the one violation expected; "" for none
	}{
		{"control: engine imports leaf", p("internal/privatize", "internal/tokenize", "internal/ledger"), ""},
		{"control: mobile imports root and a leaf", p("mobile", "core", "internal/buildinfo"), ""},
		{"control: the named exception", p("internal/mechanism", "internal/keepwords"), ""},
		{"control: engine tests import verification", withTests(p("internal/mechanism"), "internal/audit", "internal/stattest"), ""},
		{"control: a command imports command support", main(p("cmd/wordveil", "internal/cli")), ""},
		{"the CLI imports seeded (its -seed goes through core.UseEvaluationSeed)", main(p("cmd/wordveil", "internal/seeded")), "cmd/wordveil imports internal/seeded: outside tests only"},
		{"leaf imports engine", p("internal/tokenize", "internal/wva"), "internal/tokenize (leaves) imports internal/wva (engine): leaves may import nothing"},
		{"leaf imports leaf", p("internal/sample", "internal/epsrange"), "internal/sample (leaves) imports internal/epsrange (leaves)"},
		{"engine imports verification", p("internal/privatize", "internal/audit"), "internal/privatize (engine) imports internal/audit (verification)"},
		{"engine imports the root", p("internal/memo", "core"), "internal/memo (engine) imports core (composition)"},
		{"root imports verification", p("core", "internal/dpexact"), "core (composition) imports internal/dpexact (verification)"},
		{"mobile imports the engine", p("mobile", "internal/mechanism"), "mobile (binding) imports internal/mechanism (engine)"},
		{"code imports a test-only helper", p("internal/hamming", "internal/stattest"), "internal/hamming (engine) imports internal/stattest (test-only)"},
		{"leaf tests import the engine", withTests(p("internal/sample"), "internal/mechanism"), "tests of internal/sample (leaves) import internal/mechanism (engine)"},
		{"a command that is not a main imports command support", p("cmd/wordveil", "internal/cli"), "cmd/wordveil (commands) imports internal/cli (command support): only main packages and tests may import command support"},
		{"engine imports seeded", p("internal/privatize", "internal/seeded"), "internal/privatize imports internal/seeded: outside tests only"},
		{"new package", p("internal/newthing"), "internal/newthing is in no layer"},
		{"go list error", listed{ImportPath: module + "/internal/sample", Error: &struct{ Err string }{"import cycle not allowed"}}, "internal/sample: go list: import cycle not allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The case's package, and every other layer package without
			// imports, so that only the case can be reported.
			pkgs := []listed{c.pkg}
			for _, l := range layers {
				for _, q := range l.pkgs {
					if abs(q.path) != c.pkg.ImportPath {
						pkgs = append(pkgs, p(q.path))
					}
				}
			}
			got := check(module, pkgs)
			switch {
			case c.want == "" && len(got) != 0:
				t.Errorf("violations %q, want none", got)
			case c.want != "" && (len(got) != 1 || !strings.Contains(got[0], c.want)):
				t.Errorf("violations %q, want one containing %q", got, c.want)
			}
		})
	}
}

// A layer package that has gone from the module is reported, so the
// drawing cannot keep a package that no longer exists.
func TestCheckMissingPackage(t *testing.T) {
	got := check(module, nil)
	if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), "internal/sample is in the layers but not in the module") {
		t.Errorf("violations %q", got)
	}
}

func TestSplice(t *testing.T) {
	doc := "a\n" + beginMarker + "\n```\nold\n```\n" + endMarker + "\nb\n"
	cases := []struct {
		name, doc, want string
	}{
		{"one block", doc, "a\n" + beginMarker + "\n```\nnew\n```\n" + endMarker + "\nb\n"},
		{"no markers", "a\n", ""},
		{"two begin markers", beginMarker + "\n" + doc, ""},
		{"end before begin", endMarker + "\n" + beginMarker + "\n", ""},
	}
	for _, c := range cases {
		got, err := splice(c.doc, "new\n")
		if c.want == "" {
			if !errors.Is(err, errNoMarkers) {
				t.Errorf("%s: %q, %v; want errNoMarkers", c.name, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
