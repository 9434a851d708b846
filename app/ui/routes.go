// Package ui holds the go-app components of the Retry Lab page. It compiles
// for both builds: the server renders the page shell from the same routes the
// browser navigates.
package ui

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers every page. Both the server and the browser call it.
func Routes() {
	app.Route("/", func() app.Composer { return &Playground{} })
}
