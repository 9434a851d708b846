// Package tests holds Retry Lab's end-to-end tests and browser benchmarks:
// they start the real server binary built by `make build`, drive Debian's
// headless Chromium with chromedp, and click through the page as a person
// would. They are behind the e2e build tag so a plain `go test ./...` does
// not need a browser; `make e2e` (part of `make test`) runs them and fails,
// never skips, when Chromium is missing. need_test.go and make_test.go,
// which check need.sh and the Makefile and need only sh and make, are not
// behind the tag.
package tests
