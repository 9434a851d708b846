//go:build !(js && wasm)

package ui

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// stableCaptures are the values computed in Render that event handlers may
// capture, by file and name, with why the first render's value is right
// for every later one: go-app keeps an element's first handler (copyText).
var stableCaptures = map[string]string{
	"controls.go key": "an input is always the same field's (fleet.Fields is fixed; the element's id is made of the key)",
	"presets.go p":    "a step's button is always the same preset's (fleet.Presets is fixed; the element's id is made of its ID)",
	"zoom.go act":     "a zoom button always does the same (each is made with its own action, which reads the Lab when called)",
}

// TestEventHandlersCaptureNoRenderValues: an event handler in app/ui reads
// what it acts on from the Lab (or its component, or the view) when the
// event comes; it captures no value computed in Render. go-app keeps an
// element's first handler on every update (its eventHandler.Equal compares
// the closures' code, not what they captured), so such a value stays the
// first render's: Copy as Go code and the endpoint's Copy copied the
// defaults whatever the page showed. Pointers are allowed (the handler
// reads through them when it runs); any other captured variable must be in
// stableCaptures, with why.
func TestEventHandlersCaptureNoRenderValues(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var asts []*ast.File
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		asts = append(asts, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", exportData(t))}
	if _, err := conf.Check("retrylab/app/ui", fset, asts, info); err != nil {
		t.Fatalf("type-check app/ui: %v", err)
	}

	handlers, found := 0, map[string]bool{}
	for _, f := range asts {
		file := filepath.Base(fset.Position(f.Pos()).Filename)
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok || !isEventHandler(info.Types[lit].Type) {
				return true
			}
			handlers++
			ast.Inspect(lit.Body, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok {
					return true
				}
				v, ok := info.Uses[id].(*types.Var)
				if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
					return true // not a variable, or a package's
				}
				if v.Pos() >= lit.Pos() && v.Pos() < lit.End() {
					return true // the handler's own
				}
				if _, ptr := v.Type().Underlying().(*types.Pointer); ptr {
					return true // read through when the event comes
				}
				key := file + " " + v.Name()
				found[key] = true
				if _, ok := stableCaptures[key]; !ok {
					t.Errorf("%s: an event handler captures %s (%s), computed before the event: go-app keeps the first render's handler, "+
						"so it would act on the first render's value; read it from the Lab in the handler instead",
						fset.Position(id.Pos()), v.Name(), v.Type())
				}
				return true
			})
			return true
		})
	}
	if handlers < 30 {
		t.Errorf("found %d event handlers in app/ui, want the page's 30 or more: the check does not see them", handlers)
	}
	var stale []string
	for key := range stableCaptures {
		if !found[key] {
			stale = append(stale, key)
		}
	}
	sort.Strings(stale)
	for _, key := range stale {
		t.Errorf("stableCaptures lists %q, which no handler captures any more: remove it", key)
	}
}

// exportData finds the compiled export data of app/ui's imports, through
// go list (type-checking them from source took seconds).
func exportData(t *testing.T) func(path string) (io.ReadCloser, error) {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	files := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, file, ok := strings.Cut(line, "\t"); ok && file != "" {
			files[path] = file
		}
	}
	return func(path string) (io.ReadCloser, error) {
		file, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	}
}

// isEventHandler reports whether t is a go-app event handler's type,
// func(app.Context, app.Event).
func isEventHandler(t types.Type) bool {
	sig, ok := t.(*types.Signature)
	if !ok || sig.Params().Len() != 2 || sig.Results().Len() != 0 {
		return false
	}
	named := func(t types.Type, name string) bool {
		n, ok := t.(*types.Named)
		return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && strings.HasSuffix(n.Obj().Pkg().Path(), "go-app/v10/pkg/app")
	}
	return named(sig.Params().At(0).Type(), "Context") && named(sig.Params().At(1).Type(), "Event")
}
