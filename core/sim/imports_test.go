package sim

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports checks that package sim uses only the standard library,
// retrylab/core and retrylab/core/endpoint (and neither net/http, which would bloat the page's
// WebAssembly, nor syscall/js), in every file whatever its build tags. The
// external test package sim_test may also import app/fleet, for the
// benchmark of what the page pays.
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		external := f.Name.Name == "sim_test"
		if problem := packageClauseProblem(name, f.Name.Name); problem != "" {
			t.Error(problem)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			standard := !strings.Contains(first, ".") && first != "retrylab"
			switch {
			case path == "syscall/js", path == "net/http" && !strings.HasSuffix(name, "_test.go"):
				t.Errorf("%s imports %s", name, path)
			case standard, path == "retrylab/core", path == "retrylab/core/endpoint":
			case external && path == "retrylab/core/sim":
			default:
				t.Errorf("%s imports %s: package sim may use the standard library, retrylab/core and retrylab/core/endpoint only", name, path)
			}
		}
	}
}

// packageClauseProblem says what is wrong with a file named name in
// package pkg, or "": every file is package sim, or package sim_test in a
// _test.go file. (A file the build ignores, e.g. "//go:build ignore" with
// package main, is not compiled, so only this check sees it.)
func packageClauseProblem(name, pkg string) string {
	switch {
	case pkg == "sim", pkg == "sim_test" && strings.HasSuffix(name, "_test.go"):
		return ""
	case pkg == "sim_test":
		return name + ": package sim_test in a non-test file"
	}
	return name + ": package " + pkg + ", want sim (or sim_test in a _test.go file)"
}

// TestPackageClauseProblem shows the check can fail.
func TestPackageClauseProblem(t *testing.T) {
	for _, tc := range []struct {
		name, pkg string
		ok        bool
	}{
		{"fleet.go", "sim", true},
		{"fleet_test.go", "sim", true},
		{"bench_test.go", "sim_test", true},
		{"gen.go", "main", false},
		{"gen_test.go", "main", false},
		{"x.go", "sim_test", false},
		{"x_test.go", "other_test", false},
		{"x.go", "core", false},
	} {
		if got := packageClauseProblem(tc.name, tc.pkg); (got == "") != tc.ok {
			t.Errorf("%s in package %s: %q, want ok %v", tc.name, tc.pkg, got, tc.ok)
		}
	}
}
