package core

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A corePackage is a directory under core, its package name and what its
// files may import beyond the standard library.
type corePackage struct {
	dir, pkg string
	imports  []string // non-standard imports allowed in every file
	external []string // and in package pkg_test
}

// corePackages are core and the packages under it (every one:
// TestCorePackagesListsEveryPackage), each with the
// packages of this module its files may import, and (external) the
// further imports its external test package may use: core's differential
// tests and benchmarks compare it with the libraries a user would
// otherwise pick.
var corePackages = []corePackage{
	{".", "core", nil, []string{"retrylab/core", "golang.org/x/time/rate", "github.com/cenkalti/backoff/v5"}},
	{"endpoint", "endpoint", []string{"retrylab/core"}, []string{"retrylab/core/endpoint"}},
	{"sim", "sim", []string{"retrylab/core", "retrylab/core/endpoint"}, []string{"retrylab/core/sim"}},
}

// bannedInCore are standard packages core's non-test files must not use:
// net/http bloats the WebAssembly build, syscall/js belongs in
// app/browser.
var bannedInCore = map[string]bool{"net/http": true, "syscall/js": true}

func isStandard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && first != "retrylab"
}

// TestImportsStandardLibraryOnly parses every .go file of core, core/endpoint
// and core/sim, whatever its build tags (go list sees only the files of
// one build), tests included, and checks its package clause and imports
// (importProblem).
func TestImportsStandardLibraryOnly(t *testing.T) {
	fset := token.NewFileSet()
	for _, p := range corePackages {
		files, err := filepath.Glob(filepath.Join(p.dir, "*.go"))
		if err != nil || len(files) < 3 {
			t.Fatalf("%s: only %d Go files: %v", p.dir, len(files), err)
		}
		checked := 0
		for _, name := range files {
			f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			if problem := packageClauseProblem(p.pkg, filepath.Base(name), f.Name.Name); problem != "" {
				t.Errorf("%s: %s", name, problem)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if problem := importProblem(p.imports, p.external, f.Name.Name == p.pkg+"_test", strings.HasSuffix(name, "_test.go"), path); problem != "" {
					t.Errorf("%s imports %s: %s", name, path, problem)
				}
				checked++
			}
		}
		if checked < 5 {
			t.Fatalf("%s: only %d imports checked: wrong directory?", p.dir, checked)
		}
	}
}

// Every directory of Go files under core is in corePackages: a package
// added beside endpoint and sim was checked by nothing.
func TestCorePackagesListsEveryPackage(t *testing.T) {
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "testdata" || path != "." && strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go") && !slices.Contains(dirs, filepath.Dir(path)):
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if !slices.ContainsFunc(corePackages, func(p corePackage) bool { return filepath.Clean(p.dir) == dir }) {
			t.Errorf("core/%s has Go files and no entry in corePackages: its imports are not checked", dir)
		}
	}
}

// importProblem says what is wrong with a file importing path, or "": a
// non-test file may use the standard library but bannedInCore, and the
// module's packages in allowed; a test the standard library whole; the
// external test package the packages in external too.
func importProblem(allowed, external []string, inExternal, isTest bool, path string) string {
	switch {
	case isStandard(path):
		if !isTest && bannedInCore[path] {
			return "not allowed in core"
		}
		return ""
	case slices.Contains(allowed, path), inExternal && slices.Contains(external, path):
		return ""
	}
	return "core uses the standard library and core only"
}

// packageClauseProblem says what is wrong with a file named name in
// package got of a directory of package pkg, or "": pkg, or pkg_test in a
// _test.go file. (A file the build ignores, e.g. "//go:build ignore" with
// package main, is not compiled, so only this check sees it.)
func packageClauseProblem(pkg, name, got string) string {
	switch {
	case got == pkg, got == pkg+"_test" && strings.HasSuffix(name, "_test.go"):
		return ""
	case got == pkg+"_test":
		return "package " + got + " in a non-test file"
	}
	return "package " + got + ", want " + pkg + " (or " + pkg + "_test in a _test.go file)"
}

// The checks can fail.
func TestImportAndPackageProblems(t *testing.T) {
	for _, c := range []struct {
		pkg, name, got string
		ok             bool
	}{
		{"sim", "fleet.go", "sim", true},
		{"sim", "fleet_test.go", "sim", true},
		{"sim", "bench_test.go", "sim_test", true},
		{"sim", "gen.go", "main", false},
		{"sim", "gen_test.go", "main", false},
		{"sim", "x.go", "sim_test", false},
		{"sim", "x_test.go", "other_test", false},
		{"sim", "x.go", "core", false},
	} {
		if got := packageClauseProblem(c.pkg, c.name, c.got); (got == "") != c.ok {
			t.Errorf("%s in package %s: %q, want ok %v", c.name, c.got, got, c.ok)
		}
	}
	ep := corePackages[1]
	for _, c := range []struct {
		inExternal, isTest bool
		path               string
		ok                 bool
	}{
		{false, false, "strconv", true},
		{false, false, "retrylab/core", true},
		{false, false, "net/http", false},
		{false, true, "net/http", true},
		{false, false, "syscall/js", false},
		{false, false, "retrylab/app/mock", false},
		{false, false, "retrylab/core/sim", false},
		{false, true, "retrylab/core/endpoint", false}, // itself, from its own package
		{true, true, "retrylab/core/endpoint", true},
		{true, true, "golang.org/x/time/rate", false},
	} {
		if got := importProblem(ep.imports, ep.external, c.inExternal, c.isTest, c.path); (got == "") != c.ok {
			t.Errorf("endpoint (external %v, test %v) importing %s: %q, want ok %v", c.inExternal, c.isTest, c.path, got, c.ok)
		}
	}
}

// TestTransitiveDepsAreStandard asks the go command for the full
// dependency graph of core and the packages under it, core/endpoint and
// core/sim (non-test build, for linux/amd64 and js/wasm): every package
// must be standard or one of them, and net/http must not be among them
// even indirectly. It needs the go command,
// so it is skipped under js/wasm.
func TestTransitiveDepsAreStandard(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no go command under js/wasm; TestImportsStandardLibraryOnly covers the direct imports")
	}
	goCmd, err := exec.LookPath("go") // the tests run under it: never skipped for want of it
	if err != nil {
		t.Fatalf("no go command on PATH: %v", err)
	}
	for _, goos := range []string{"linux", "js"} {
		cmd := exec.Command(goCmd, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", "./...")
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+map[string]string{"linux": "amd64", "js": "wasm"}[goos])
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list (GOOS=%s): %v\n%s", goos, err, out)
		}
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			path, std, _ := strings.Cut(line, " ")
			n++
			if path == "retrylab/core" || strings.HasPrefix(path, "retrylab/core/") {
				continue
			}
			if std != "true" {
				t.Errorf("GOOS=%s: core depends on non-standard %s", goos, path)
			}
			if path == "net/http" { // (syscall/js is fine indirectly: the js runtime uses it)
				t.Errorf("GOOS=%s: core depends on net/http", goos)
			}
		}
		if n < 10 {
			t.Fatalf("GOOS=%s: suspiciously few deps: %s", goos, out)
		}
	}
}

// platformMath are the math functions whose results may differ in the last
// bit between platforms: assembly versions on some architectures (Exp and
// Log on amd64, many on s390x), and pure-Go code whose multiply-adds the
// compiler fuses on arm64 (and amd64 from GOAMD64=v3) but not in js/wasm.
// Sqrt, Abs, Floor, Frexp, Ldexp and the like are exact everywhere.
var platformMath = map[string]bool{
	"Log": true, "Log1p": true, "Log2": true, "Log10": true, "Logb": true,
	"Exp": true, "Exp2": true, "Expm1": true, "Pow": true, "Cbrt": true, "Hypot": true,
	"Sin": true, "Cos": true, "Tan": true, "Sincos": true, "Asin": true, "Acos": true, "Atan": true, "Atan2": true,
	"Sinh": true, "Cosh": true, "Tanh": true, "Asinh": true, "Acosh": true, "Atanh": true,
	"Erf": true, "Erfc": true, "Erfinv": true, "Erfcinv": true, "Gamma": true, "Lgamma": true,
	"J0": true, "J1": true, "Jn": true, "Y0": true, "Y1": true, "Yn": true,
}

// TestNoPlatformDependentMath: core's, core/endpoint's and core/sim's
// results (backoff delays, the endpoint's answers, simulated event
// streams) are promised identical natively and in WebAssembly, so their
// non-test code calls none of platformMath: it uses hand-written,
// fusion-free versions (sim's logf and log1pf, core's powInt).
func TestNoPlatformDependentMath(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	simFiles, _ := filepath.Glob(filepath.Join("sim", "*.go"))
	endpointFiles, _ := filepath.Glob(filepath.Join("endpoint", "*.go"))
	fset := token.NewFileSet()
	checked := 0
	for _, name := range append(append(files, simFiles...), endpointFiles...) {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, imp := range f.Imports {
			if imp.Path.Value == `"math"` && imp.Name != nil {
				t.Errorf("%s imports math as %s: the check below looks for math.X", name, imp.Name.Name)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "math" && platformMath[sel.Sel.Name] {
				t.Errorf("%s: math.%s may give different bits on different platforms", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("only %d files checked: wrong directory?", checked)
	}
}
