//go:build !(js && wasm)

package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"retrylab/app/fleet"
	"retrylab/app/mock"
	"retrylab/app/ui"
)

// fakeRoot lays out what `make build` produces, with a tiny "wasm".
func fakeRoot(t *testing.T, withCompressed bool) string {
	t.Helper()
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "web"), 0o755))
	wasm := filepath.Join(root, "web", "app.wasm")
	must(os.WriteFile(wasm, bytes.Repeat([]byte("\x00asm wasm bytes "), 512), 0o644))
	must(os.WriteFile(filepath.Join(root, "wasm_exec.js"), []byte("// toolchain wasm_exec.js\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "web", "app.css"), []byte("body{}"), 0o644))
	if withCompressed {
		must(compressCommand([]string{wasm}, io.Discard))
	}
	return root
}

// serveSite serves the site of root on a loopback test server, closed
// (with the site) when the test ends.
func serveSite(t *testing.T, root string) *httptest.Server {
	t.Helper()
	s, err := newSite(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}

func TestMain(m *testing.M) {
	ui.Routes() // the go-app handler answers 404 for unregistered routes
	os.Exit(m.Run())
}

func TestSiteServes(t *testing.T) {
	srv := serveSite(t, fakeRoot(t, true))
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}, Timeout: 10 * time.Second}

	get := func(path string, hdr ...string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	// The test's browser is on this machine: app.wasm comes as is (direct).
	// One elsewhere, through a proxy here, gets a compressed copy.
	const remote = "X-Forwarded-For"
	tests := []struct {
		path, accept string
		status       int
		contentType  string
		encoding     string
		contains     string
		proxied      bool
	}{
		{"/", "", 200, "text/html", "", "Retry Lab", false},
		{"/wasm_exec.js", "", 200, "text/javascript", "", "toolchain wasm_exec.js", false},
		{"/app.js", "", 200, "text/javascript", "", `retrylabInstantiate(instantiateStreaming, "/web/app.wasm", go.importObject, showProgress)`, false},
		{"/app-worker.js", "", 200, "", "", `url.pathname === "/mock"`, false},
		{"/web/app.css", "", 200, "text/css", "", "body{}", false},
		{"/web/app.wasm", "br, gzip", 200, "application/wasm", "br", "", true},
		{"/web/app.wasm", "gzip", 200, "application/wasm", "gzip", "", true},
		{"/web/app.wasm", "identity", 200, "application/wasm", "", "asm wasm bytes", true},
		{"/web/app.wasm", "gzip, deflate, br, zstd", 200, "application/wasm", "", "asm wasm bytes", false},
		{"/mock?key=site&limiter=none", "", 200, "application/json", "", `"allowed":true`, false},
		{"/mock?rate=abc", "", 400, "application/json", "", `"param":"rate"`, false},
		{"/mock/burst?n=5", "", 405, "application/json", "", `"allowed":"POST, OPTIONS"`, false},                                      // mounted: the switch refuses a GET
		{"/mock/", "", 404, "application/json", "", `"allowed":"/mock, /mock/events, /mock/outage, /mock/limit, /mock/burst"`, false}, // a mistyped endpoint: JSON, naming those there are
		{"/mock/event", "", 404, "application/json", "", `"value":"/mock/event"`, false},
		{"/mock//", "", 404, "application/json", "", `"value":"/mock//"`, false}, // not ServeMux's 307 to /mock/
		{"/mock/./events?key=a", "", 404, "application/json", "", `"value":"/mock/./events"`, false},
		{"/mock/../mock", "", 404, "application/json", "", `"value":"/mock/../mock"`, false},
		{"/mock/" + strings.Repeat("a", 5000), "", 404, "application/json", "", `"value":"/mock/` + strings.Repeat("a", 58) + `… (5006 bytes)"`, false}, // cut, as every refused value (it came back whole)
		{"/join", "", 200, "application/json", "", `"origins":[]`, false},                                                                               // mounted; newSite does not know its address until serve listens
		{"/qr.svg?text=http%3A%2F%2F192.168.1.7%3A8080%2F%3Froom%3Droom1", "", 200, "image/svg+xml", "", `aria-label="http://192.168.1.7:8080/?room=room1"`, false},
		{"/qr.svg?size=300", "", 400, "application/json", "", `"param":"size"`, false},
	}
	for _, tt := range tests {
		hdr := []string{"Accept-Encoding", tt.accept}
		if tt.proxied {
			hdr = append(hdr, remote, "192.0.2.7")
		}
		resp, body := get(tt.path, hdr...)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, tt.contentType) {
			t.Errorf("%s: Content-Type %q, want %q", tt.path, ct, tt.contentType)
		}
		if enc := resp.Header.Get("Content-Encoding"); enc != tt.encoding {
			t.Errorf("%s (Accept-Encoding %q): Content-Encoding %q, want %q", tt.path, tt.accept, enc, tt.encoding)
		}
		if !strings.Contains(body, tt.contains) {
			t.Errorf("%s: body does not contain %q:\n%.200s", tt.path, tt.contains, body)
		}
	}

	// The server prerenders only the page's header (ui.Playground.Shell):
	// the wasm mounts the whole page in its place.
	// Without JavaScript the loader is hidden and a note says why.
	if _, page := get("/"); !strings.Contains(page, `class="tagline"`) || strings.Contains(page, `id="timeline"`) || strings.Contains(page, `id="run"`) ||
		!strings.Contains(page, `<noscript><style>#app-wasm-loader{display:none}</style></noscript>`) || !strings.Contains(page, "it needs JavaScript") {
		t.Errorf("/ should prerender the header and a noscript note only:\n%.3000s", page)
	}

	// The gzip copy decodes to the very bytes of app.wasm, and the
	// uncompressed size travels in a header for go-app's loader progress.
	resp, gz := get("/web/app.wasm", "Accept-Encoding", "gzip", remote, "192.0.2.7")
	zr, err := gzip.NewReader(strings.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(zr)
	_, identity := get("/web/app.wasm")
	if string(raw) != identity {
		t.Error("gzip copy does not decode to app.wasm")
	}
	if got := resp.Header.Get(wasmLengthHeader); got != "8192" {
		t.Errorf("%s = %q, want 8192", wasmLengthHeader, got)
	}
	// Revalidation is a 304.
	etag := resp.Header.Get("ETag")
	if r, _ := get("/web/app.wasm", "Accept-Encoding", "gzip", remote, "192.0.2.7", "If-None-Match", etag); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: status %d, want 304", etag, r.StatusCode)
	}
}

// Regression: a compressed copy older than app.wasm (a rebuild without
// compress) must not be served in place of the new build.
// The loader served as /app.js is go-app's with app.wasm streamed straight
// into the compiler and the service worker registered after the page is
// interactive; an app.js it cannot find its way in is an error at start-up,
// not a silently slower page.
// deferred reports whether page loads the script src with defer (go-app
// writes a tag's attributes in no fixed order).
func deferred(page, src string) bool {
	i := strings.Index(page, `src="`+src+`"`)
	if i < 0 {
		return false
	}
	start, end := strings.LastIndex(page[:i], "<script"), strings.Index(page[i:], ">")
	return start >= 0 && end >= 0 && strings.Contains(page[start:i+end], " defer")
}

func TestLoaderJS(t *testing.T) {
	s, err := newSite(fakeRoot(t, true))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	js := rec.Body.String()
	run := strings.Index(js, "go.run(wasm.instance);")
	register := strings.Index(js, "retrylabWhenReady(goappInitServiceWorker);")
	switch {
	case strings.Contains(js, "fetchWithProgress(\"/web/app.wasm\""):
		t.Error("app.wasm still goes through go-app's JavaScript stream")
	case strings.Contains(js, "\ngoappInitServiceWorker();\n"):
		t.Error("the service worker still registers before the wasm loads")
	case run < 0 || register < run:
		t.Errorf("the service worker should register after go.run (at %d), found at %d", run, register)
	case !strings.Contains(js, "retrylabInstantiate(instantiateStreaming, \"/web/app.wasm\", go.importObject, showProgress)"):
		t.Error("the loader does not take the module from the worker")
	case !strings.Contains(js, "function retrylabInstantiate(") || !strings.Contains(js, "function retrylabFetchWasm(") || !strings.Contains(js, "function retrylabWhenReady("):
		t.Error("the loader's helper functions are missing")
	}
	// The page's head starts the worker that fetches and compiles app.wasm,
	// and no longer preloads it: the page's preload and the worker's fetch
	// would download it twice (or the second wait on the first: the cache
	// lock), and the compile must start with the download.
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	page := rec.Body.String()
	head, _, _ := strings.Cut(page, "</head>")
	switch {
	case !strings.Contains(head, "var retrylabWasm = (function () {") || !strings.Contains(head, "WebAssembly.compileStreaming("):
		t.Error("the page's head does not start the worker that compiles app.wasm")
	case strings.Contains(page, `rel="preload"`):
		t.Error("the page still preloads app.wasm: the worker downloads it")
	case !deferred(head, "/app.js") && strings.Index(head, "retrylabWasm") > strings.Index(head, "/app.js"):
		t.Error("the loader can run before the head's script made the worker")
	}

	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/app.js", nil))
	if etag := rec.Header().Get("ETag"); etag == "" {
		t.Error("app.js has no ETag")
	} else {
		rec = httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/app.js", nil)
		req.Header.Set("If-None-Match", etag)
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotModified {
			t.Errorf("If-None-Match %s: status %d, want 304", etag, rec.Code)
		}
	}

	other := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "// another go-app\n") })
	if _, err := loaderJS(other); err == nil || !strings.Contains(err.Error(), "app/site.go") {
		t.Errorf("an app.js without go-app's loader: err = %v, want one that points at app/site.go", err)
	}
}

func TestStaleCompressedCopyIgnored(t *testing.T) {
	root := fakeRoot(t, true)
	wasm := filepath.Join(root, "web", "app.wasm")
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(wasm, future, future); err != nil {
		t.Fatal(err)
	}
	a, err := loadWasm(wasm)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.encoded) != 0 || len(a.warnings) != 2 {
		t.Errorf("stale copies: encoded %d, warnings %q; want none served and two warnings", len(a.encoded), a.warnings)
	}
}

// TestSitePageHeaders: every answer but the mock endpoint's forbids
// framing, sniffing and the Referer and says it is Retry Lab's
// (setPageHeaders), refusals (a 431 too: a service worker that saw an
// answer without X-Retry-Lab left) and the service worker included; the
// mock's answers, any page's to read, do not carry them (its own nosniff
// aside).
func TestSitePageHeaders(t *testing.T) {
	srv := serveSite(t, fakeRoot(t, true))
	page := map[string]string{
		"X-Retry-Lab":             "1",
		"Content-Security-Policy": "frame-ancestors 'none'",
		"X-Frame-Options":         "DENY",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
	}
	for _, c := range []struct {
		path string
		page bool
	}{
		{"/", true},
		{"/?workers=50&target=http%3A%2F%2Fapi.example%2F", true},
		{"/app.js", true},
		{"/app-worker.js", true},
		{"/wasm_exec.js", true},
		{"/web/app.css", true},
		{"/web/app.wasm", true},
		{"/join", true},
		{"/qr.svg?size=300", true},
		{"/no-such-page", true},
		{"/mocked", true},
		{"/mock?key=headers&limiter=none", false},
		{"/mock?rate=abc", false},
		{"/mock/", false},
		{"/mock/events?key=headers&hello=0", false},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+c.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			cancel()
			t.Fatalf("%s: %v", c.path, err)
		}
		resp.Body.Close()
		cancel()
		for name, want := range page {
			got := resp.Header.Get(name)
			if c.page && got != want {
				t.Errorf("%s (%d): %s is %q, want %q", c.path, resp.StatusCode, name, got, want)
			}
			if !c.page && name != "X-Content-Type-Options" && got != "" {
				t.Errorf("%s (%d): the mock's answer has %s %q", c.path, resp.StatusCode, name, got)
			}
		}
	}
	req, _ := http.NewRequest("GET", srv.URL+"/?workers=7", nil)
	req.Header.Set("Cookie", strings.Repeat("c", 20<<10)) // another program's cookies on localhost
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge || resp.Header.Get("X-Retry-Lab") != "1" {
		t.Errorf("a page asked with 20 KiB of headers: %d, X-Retry-Lab %q; want 431 and 1", resp.StatusCode, resp.Header.Get("X-Retry-Lab"))
	}
}

// A root without the build names the path looked at in full (started from
// another folder, "web/app.wasm is missing" did not say where) and the two
// ways out: make build, or -root (RETRYLAB_ROOT) pointing at the repository.
func TestSiteNeedsBuild(t *testing.T) {
	const way = ": run `make build` first, or point -root (RETRYLAB_ROOT) at the repository"
	tests := []struct {
		name string
		// layout makes the folder the server is started in (the working
		// directory) and returns the -root given and the error wanted,
		// given that folder.
		layout func(t *testing.T, cwd string) (root, want string)
	}{
		{"empty folder, absolute", func(t *testing.T, cwd string) (string, string) {
			return cwd, filepath.Join(cwd, "web", "app.wasm") + " is missing" + way
		}},
		{"the default root, started elsewhere", func(t *testing.T, cwd string) (string, string) {
			return ".", filepath.Join(cwd, "web", "app.wasm") + " is missing" + way
		}},
		{"a relative root", func(t *testing.T, cwd string) (string, string) {
			return "retrylab", filepath.Join(cwd, "retrylab", "web", "app.wasm") + " is missing" + way
		}},
		{"app.wasm built, wasm_exec.js missing", func(t *testing.T, cwd string) (string, string) {
			root := fakeRoot(t, true)
			if err := os.Remove(filepath.Join(root, "wasm_exec.js")); err != nil {
				t.Fatal(err)
			}
			return root, filepath.Join(root, "wasm_exec.js") + " is missing: run `make build` (it copies the Go toolchain's copy), or point -root (RETRYLAB_ROOT) at the repository"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd := t.TempDir()
			t.Chdir(cwd)
			root, want := tt.layout(t, cwd)
			s, err := newSite(root)
			if err == nil {
				s.Close()
				t.Fatalf("newSite(%q) served, want %q", root, want)
			}
			if err.Error() != want {
				t.Errorf("newSite(%q):\n got %s\nwant %s", root, err, want)
			}
		})
	}
}

func TestVersionIsDeterministic(t *testing.T) {
	a, b := versionOf([]byte("build one")), versionOf([]byte("build one"))
	if a != b || a == versionOf([]byte("build two")) || len(a) != 16 {
		t.Errorf("versions %q %q", a, b)
	}
}

// The README's parameter table is the mock's own: a parameter added to the
// endpoint and not documented fails here.
func TestReadmeDocumentsEveryMockParameter(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range mock.Table() {
		row := "| `" + p.Name + "` | " + p.Meaning + " | " + p.Default + " | " + p.Allowed + " |"
		if !strings.Contains(string(readme), row) {
			t.Errorf("README.md lacks the row for %q:\n%s", p.Name, row)
		}
	}
}

// The README's page parameter and export schema tables (the events'
// columns, the JSON's top level, stats and faults) are generated from fleet's: a field,
// column or figure added without documentation fails here.
func TestReadmeDocumentsPageFieldsAndSchema(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, table := range map[string]string{"fields": fleet.FieldsMarkdown(), "schema": fleet.SchemaMarkdown(), "JSON stats": fleet.StatsMarkdown(), "JSON head": fleet.HeadMarkdown(), "JSON faults": fleet.FaultsMarkdown(), "JSON gaps": fleet.GapsMarkdown()} {
		if !strings.Contains(string(readme), strings.TrimSpace(table)) {
			t.Errorf("README.md does not contain fleet's %s table as generated:\n%s", name, table)
		}
	}
}

// The README's target table lists exactly the targets `make help` lists.
func TestReadmeListsEveryMakeTarget(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	makefile, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	var targets, rows []string
	for _, m := range regexp.MustCompile(`(?m)^([a-z0-9-]+):.*## `).FindAllStringSubmatch(string(makefile), -1) {
		targets = append(targets, m[1])
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `make ([a-z0-9-]+)` \\|").FindAllStringSubmatch(string(readme), -1) {
		rows = append(rows, m[1])
	}
	slices.Sort(targets)
	slices.Sort(rows)
	if len(targets) < 10 || !slices.Equal(targets, rows) {
		t.Errorf("README.md's target table lists %q; the Makefile's help lists %q", rows, targets)
	}
}

// Regression: /web/ serves root/web/ only. go-app hands the resource
// handler every path under /web/, and the mux does not clean an encoded dot
// segment, so /web/%2e%2e/go.mod was the server folder's go.mod (200), and
// /web/%2e%2e/ listed the folder: sources, Makefile, .git. No folder under
// /web/ is listed at all.
func TestStaticStaysInWeb(t *testing.T) {
	root := fakeRoot(t, false)
	if err := os.WriteFile(filepath.Join(root, "secret.txt"), []byte("not for the web"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serveSite(t, root)
	tests := []struct {
		path   string
		status int
	}{
		{"/web/app.css", 200},
		{"/web/%2e%2e/secret.txt", 404},
		{"/web/%2E%2E/secret.txt", 404},
		{"/web/..%2fsecret.txt", 404},
		{"/web/%2e%2e%2fsecret.txt", 404},
		{"/web/app.css/%2e%2e/%2e%2e/secret.txt", 404},
		{"/web/%2e%2e/", 404}, // no listing, of root/web/ or of root
		{"/web/", 404},
		{"/web/readme/", 404},
		{"/web/%2e%2e/%2e%2e/%2e%2e/etc/passwd", 404},
	}
	for _, tt := range tests {
		resp, err := http.Get(srv.URL + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		body := string(b)
		if resp.StatusCode != tt.status {
			t.Errorf("GET %s: status %d, want %d\n%.200s", tt.path, resp.StatusCode, tt.status, body)
		}
		if strings.Contains(body, "not for the web") || strings.Contains(body, "secret.txt") || strings.Contains(body, "wasm_exec.js") {
			t.Errorf("GET %s shows the server folder:\n%.200s", tt.path, body)
		}
	}
}

// Regression: the server's own files refuse other methods as /join and
// /qr.svg do: 405, Allow: GET, HEAD, and the JSON error body. app.wasm
// answered 405 in plain text ("method not allowed"); wasm_exec.js and
// app.js answered a POST or a DELETE 200 with the script, and go-app
// answered any method on the page and its files as a GET.
func TestAssetsRefuseOtherMethods(t *testing.T) {
	srv := serveSite(t, fakeRoot(t, false))
	tests := []struct {
		method, path string
		status       int
	}{
		{"GET", "/web/app.wasm", 200},
		{"HEAD", "/web/app.wasm", 200},
		{"POST", "/web/app.wasm", 405},
		{"OPTIONS", "/web/app.wasm", 405},
		{"GET", "/wasm_exec.js", 200},
		{"HEAD", "/wasm_exec.js", 200},
		{"POST", "/wasm_exec.js", 405},
		{"DELETE", "/wasm_exec.js", 405},
		{"GET", "/app.js", 200},
		{"PUT", "/app.js", 405},
		{"GET", "/", 200},
		{"HEAD", "/", 200},
		{"POST", "/", 405},
		{"DELETE", "/", 405},
		{"POST", "/manifest.webmanifest", 405},
		{"POST", "/app-worker.js", 405},
		{"POST", "/web/app.css", 405},
		{"PUT", "/app.wasm", 405},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s %s: status %d, want %d", tt.method, tt.path, resp.StatusCode, tt.status)
		}
		if tt.status != 405 {
			continue
		}
		if ct, allow := resp.Header.Get("Content-Type"), resp.Header.Get("Allow"); ct != "application/json" || allow != "GET, HEAD" {
			t.Errorf("%s %s: Content-Type %q, Allow %q; want application/json, GET, HEAD", tt.method, tt.path, ct, allow)
		}
		if want := `"param":"method","value":"` + tt.method + `","allowed":"GET, HEAD"`; !strings.Contains(string(b), want) {
			t.Errorf("%s %s: body %.200q, want it to contain %s", tt.method, tt.path, b, want)
		}
	}
}

// The page's version, go-app's ETag, covers every file under web/: an
// edited app.css reaches a browser that holds the old one, though app.wasm
// is the same (the version was the wasm's alone, and go-app answered the
// old ETag with 304).
func TestEditedStylesReachTheBrowser(t *testing.T) {
	root := fakeRoot(t, true)
	etag := func() string {
		srv := serveSite(t, root)
		resp, err := http.Get(srv.URL + "/web/app.css")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.Header.Get("ETag")
	}
	before := etag()
	if err := os.WriteFile(filepath.Join(root, "web", "app.css"), []byte("body{color:red}"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serveSite(t, root)
	req, _ := http.NewRequest("GET", srv.URL+"/web/app.css", nil)
	req.Header.Set("If-None-Match", before)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "body{color:red}" || resp.Header.Get("ETag") == before {
		t.Errorf("app.css edited, asked with the old ETag %s: %d %q (ETag %s); want the new file", before, resp.StatusCode, body, resp.Header.Get("ETag"))
	}
	if again := etag(); again != resp.Header.Get("ETag") {
		t.Errorf("the same files gave versions %s and %s", resp.Header.Get("ETag"), again)
	}
}

// Too large a request line and headers get 431 with the JSON body every
// other refusal has, and CORS, so that a page's worker on another origin
// sees the status: net/http's own 431, past MaxHeaderBytes, is plain text
// without CORS, which fetch reports as a network error. Only requests past
// hardHeaderBytes still get that one (net/http writes it before any
// handler runs).
func TestTooLargeHeadersGetJSON(t *testing.T) {
	s, err := newSite(fakeRoot(t, true))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = newServer(s, context.Background())
	srv.Config.ErrorLog = nil
	srv.Start()
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		path  string
		bytes int // of one header's value
		json  bool
		want  int
	}{
		{"/mock?key=small", 10_000, false, 200},
		{"/mock?key=big", maxHeaderBytes, true, 431},
		{"/mock?key=big", 40_000, true, 431},
		{"/mock/events?key=big", 40_000, true, 431},
		{"/", 20_000, true, 431},
		{"/mock?key=big", hardHeaderBytes - 500, true, 431},
		{"/mock?key=huge", hardHeaderBytes + 5000, false, 431}, // net/http's own, plain text
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+tt.path, nil)
		req.Header.Set("X-Big", strings.Repeat("a", tt.bytes))
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("%s with %d bytes: %v", tt.path, tt.bytes, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s with %d bytes: %d, want %d", tt.path, tt.bytes, resp.StatusCode, tt.want)
			continue
		}
		if !tt.json {
			continue
		}
		var e struct{ Error, Param, Value, Allowed string }
		if err := json.Unmarshal(b, &e); err != nil || e.Param != "headers" || !strings.HasSuffix(e.Value, " bytes") || e.Allowed != "at most 16384 bytes of request line and headers" ||
			resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s with %d bytes: %v %q %v, want JSON naming headers, with CORS", tt.path, tt.bytes, resp.Header, b, err)
		}
		if n, _ := strconv.Atoi(strings.TrimSuffix(e.Value, " bytes")); n < tt.bytes || n > tt.bytes+300 {
			t.Errorf("%s with %d bytes: value %q", tt.path, tt.bytes, e.Value)
		}
	}
}

// Every refusal on the mock's paths carries the headers the mock's own
// answers do, whoever writes it: the mock (400), its switches (405), the
// site's mux for a mistyped endpoint (404) and the site for too large
// headers (431). The last two had CORS only: no Timing-Allow-Origin (a
// page on another origin saw no timing for them), no Cache-Control:
// no-store, no nosniff.
func TestMockRefusalsCarryTheMockHeaders(t *testing.T) {
	srv := serveSite(t, fakeRoot(t, true))
	want := http.Header{}
	mock.SetCommon(want)
	for _, tt := range []struct {
		path   string
		big    int // bytes of an extra header
		status int
	}{
		{"/mock?rate=abc", 0, 400},
		{"/mock/burst?n=5", 0, 405},
		{"/mock/nope", 0, 404},
		{"/mock?key=big", 20_000, 431},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+tt.path, nil)
		if tt.big > 0 {
			req.Header.Set("X-Big", strings.Repeat("a", tt.big))
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
		for name := range want {
			if got := resp.Header.Values(name); !slices.Equal(got, want[name]) {
				t.Errorf("%s (%d): %s %q, want %q", tt.path, tt.status, name, got, want[name])
			}
		}
	}
}

// newSite is newSiteWith root and the mock's defaults.
func newSite(root string) (*site, error) { return newSiteWith(root, mock.Options{}) }
