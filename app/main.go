// Command retrylab is the Retry Lab playground: one Go program that compiles
// to web/app.wasm for the browser (the page and its workers) and to a native
// server (the app shell, the mock endpoint and the command-line tools).
//
// Code shared by both builds lives here and in app/ui; server-only code is in
// files tagged !(js && wasm) so it never reaches the wasm.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"retrylab/app/ui"
)

func main() {
	// Routes must be registered by both builds: the server answers 404 for
	// an unregistered route (README: facts).
	ui.Routes()
	app.RunWhenOnBrowser() // returns at once on the server
	serverMain()
}
