//go:build js && wasm

package main

// serverMain is never reached in the browser: RunWhenOnBrowser does not return.
func serverMain() {}
