package ui

import "strings"

// escapeHTML escapes the five characters html.EscapeString escapes, with
// its replacements, for the page's few elements of raw HTML (the legend,
// the settings' labels and help lines, the shortcuts).
//
// app.wasm does not import the standard library's html: its package
// initialiser keeps the 2,231 named entities of html.UnescapeString alive
// (sync.OnceValues over a map literal), 70 KB of app.wasm, 22 KB of gzip,
// for a page that never unescapes. app/go-app.patch does the same in
// go-app. TestEscapeHTMLIsHTMLs holds it to html.EscapeString.
var escapeHTML = strings.NewReplacer(`&`, "&amp;", `'`, "&#39;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;").Replace
