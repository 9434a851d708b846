package sim

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports checks that package sim uses only the standard library and
// retrylab/core (and neither net/http, which would bloat the page's
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
		if external != strings.HasSuffix(f.Name.Name, "_test") || (external && !strings.HasSuffix(name, "_test.go")) {
			t.Errorf("%s: package %s", name, f.Name.Name)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			standard := !strings.Contains(first, ".") && first != "retrylab"
			switch {
			case path == "syscall/js", path == "net/http" && !strings.HasSuffix(name, "_test.go"):
				t.Errorf("%s imports %s", name, path)
			case standard, path == "retrylab/core":
			case external && (path == "retrylab/core/sim" || path == "retrylab/app/fleet"):
			default:
				t.Errorf("%s imports %s: package sim may use the standard library and retrylab/core only", name, path)
			}
		}
	}
}
