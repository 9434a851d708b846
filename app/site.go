//go:build !(js && wasm)

package main

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/mock"
)

//go:embed app-worker.js
var workerJS string

// site is everything the server answers: the page shell, its assets and the
// mock endpoint.
type site struct {
	mux  *http.ServeMux
	mock *mock.Handler
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close stops the mock endpoint's background work.
func (s *site) Close() { s.mock.Close() }

// newSite reads the built assets under root and wires the handlers.
func newSite(root string) (*site, error) {
	wasm, err := loadWasm(filepath.Join(root, "web", "app.wasm"))
	if err != nil {
		return nil, err
	}
	execJS := filepath.Join(root, "wasm_exec.js")
	if _, err := os.Stat(execJS); err != nil {
		return nil, fmt.Errorf("%s is missing: run `make build` (it copies the Go toolchain's copy)", execJS)
	}

	m := mock.New(mock.Options{})
	mux := http.NewServeMux()
	mux.Handle("/mock", m)
	mux.Handle("/mock/events", m.Events()) // it keeps its own rolling write deadline
	mux.Handle("/mock/outage", m.Outage())
	mux.Handle("/web/app.wasm", wasm)
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		// The toolchain's copy, served ahead of go-app's embedded one, which
		// is picked by the server's Go version and may drift (FACTS.md).
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFile(w, r, execJS)
	})
	mux.Handle("/", &app.Handler{
		Name:        "Retry Lab",
		ShortName:   "Retry Lab",
		Title:       "Retry Lab — see what retries do to a server",
		Description: "An in-browser retry playground: backoff, jitter, Retry-After and token buckets against a real rate-limited endpoint.",
		Icon: app.Icon{
			Default: "/web/icon-192.png",
			Large:   "/web/icon-512.png",
			SVG:     "/web/icon.svg",
		},
		BackgroundColor:         "#f7f7f4",
		ThemeColor:              "#1f2a44",
		LoadingLabel:            "Loading Retry Lab {progress}%",
		Styles:                  []string{"/web/app.css"},
		Resources:               webDir{http.FileServer(http.Dir(root))},
		Version:                 wasm.version,
		WasmContentLengthHeader: wasmLengthHeader,
		ServiceWorkerTemplate:   workerJS,
		// go-app's loader only asks for app.wasm after DOMContentLoaded
		// (~200 ms into a cold load); a preload starts the download with
		// the page. It matches the loader's plain same-origin fetch().
		// Without JavaScript the loader would cover the page's note for good.
		RawHeaders: []string{
			`<link rel="preload" href="/web/app.wasm" as="fetch" crossorigin="anonymous">`,
			`<noscript><style>#app-wasm-loader{display:none}</style></noscript>`,
		},
	})
	return &site{mux: mux, mock: m}, nil
}

// webDir serves root/web/ under /web/ and leaves resource URLs as they are
// (app.LocalDir would put its directory into every URL).
type webDir struct{ http.Handler }

func (webDir) Resolve(location string) string { return location }

// versionOf is the app's version: a hash of the wasm it serves, so the same
// build always has the same version and a new build is noticed by the page.
func versionOf(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}
