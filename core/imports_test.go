package core

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// testOnlyDeps are the only non-standard imports allowed, and only in the
// external test package core_test (differential tests and benchmarks).
var testOnlyDeps = map[string]bool{
	"retrylab/core":                  true,
	"golang.org/x/time/rate":         true,
	"github.com/cenkalti/backoff/v5": true,
}

// bannedInCore are standard packages core must not use: net/http bloats
// the WebAssembly build, syscall/js belongs in app/browser.
var bannedInCore = map[string]bool{"net/http": true, "syscall/js": true}

func isStandard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && first != "retrylab"
}

// TestImportsStandardLibraryOnly parses every .go file in core/ (all build
// tags, tests included) and checks:
//   - package core files (non-test): standard library only, and neither
//     net/http nor syscall/js;
//   - package core internal tests (_test.go): standard library only
//     (net/http allowed, for the differential HTTP-date test);
//   - package core_test external tests: standard library, retrylab/core,
//     golang.org/x/time/rate and github.com/cenkalti/backoff/v5 only.
func TestImportsStandardLibraryOnly(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files found: %v", err)
	}
	fset := token.NewFileSet()
	var checked int
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		isTest := strings.HasSuffix(name, "_test.go")
		external := f.Name.Name == "core_test"
		if f.Name.Name != "core" && !external {
			t.Errorf("%s: package %s", name, f.Name.Name)
		}
		if external && !isTest {
			t.Errorf("%s: package core_test in a non-test file", name)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case external:
				if !isStandard(path) && !testOnlyDeps[path] {
					t.Errorf("%s imports %s: not standard nor an allowed test dependency", name, path)
				}
			case !isStandard(path):
				t.Errorf("%s imports %s: package core must use the standard library only", name, path)
			case !isTest && bannedInCore[path]:
				t.Errorf("%s imports %s: not allowed in core", name, path)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d imports checked: wrong directory?", checked)
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
