# Retry Lab — `make run` serves the playground, `make test` runs every test.
# Run `make` (or `make help`) for the list of targets.

SHELL     := /bin/bash
GO        ?= go
GOROOT    := $(shell $(GO) env GOROOT)
WASM_EXEC := $(GOROOT)/lib/wasm
BIN       := bin/retrylab
WASM      := web/app.wasm
AXE       := tests/axe/axe.min.js
# web/app.wasm links go-app with app/go-app.patch applied (what it changes
# and why: app/README.md): make copies the
# pinned go-app to .build/go-app, patches it and builds against
# .build/wasm.mod, go.mod plus a replace. `make lint` and `make wasmtest`
# use it too (the js/wasm code as shipped); the server, the native tests and
# the end-to-end harness use go.mod as is.
GOAPP     := github.com/maxence-charriere/go-app/v10
WASMMOD   := .build/wasm.mod
# Every Go source the two builds depend on.
SOURCES   := go.mod go.sum $(shell find app core -name '*.go' -not -name '*_test.go') app/app-worker.js
# Packages app.wasm builds without inlining (-gcflags=<pkg>=-l): paths the
# page runs rarely (an error's text, a link), whose inlined copies cost
# download and no time we could measure (with encoding/json, which app.wasm
# no longer links: 24.6 KB of gzip); and
# go-app, which renders at every update: 29.2 KB more, for about 1% more
# main-thread time in the browser (app/README.md). And
# jsonlite, whose Writer's methods, inlined at each key written, made
# app.wasm 128 KB larger (24 KB of gzip) than called. And strconv: 9.4 KB
# of gzip, for no change in the JSON export's or the timeline's time
# under node (app/README.md). And app/fleet and app/mock: ~10 KB of gzip,
# for no change in Simulate's, the export's or the stream's decoding time
# under node (app/README.md). And reflect, which go-app's renders reach
# through reflect.DeepEqual, itself built without inlining, and syscall/js
# and safejs, each call of which crosses into JavaScript (1.5-2 us) anyway:
# 12.5 KB of gzip (reflect 9.5, the JS boundary 3.1). And app/browser,
# the page's side of that boundary, whose calls each cross into JavaScript
# too, and app/human, a duration written for people: with them, gzip went
# from 2,001,317 bytes, past issue 3's 2.0 MB budget (TestServerHeaders),
# to 1,991,000 (browser 9.4 KB, human 0.9 KB; 2026-12-08 00:35 UTC).
# wasmtest builds the same way.
NOINLINE  := fmt net/url strconv reflect syscall/js github.com/hack-pad/safejs $(GOAPP)/pkg/app retrylab/app/jsonlite retrylab/app/fleet retrylab/app/mock retrylab/app/browser retrylab/app/human
WASMFLAGS := -modfile=$(WASMMOD) -trimpath $(foreach p,$(NOINLINE),-gcflags=$(p)=-l)
# Extra flags for `make run`, e.g. make run ARGS='-host 0.0.0.0 -port 9000'
ARGS      ?=
# Which chromium the end-to-end tests drive.
export RETRYLAB_CHROMIUM ?= $(shell command -v chromium || command -v chromium-browser)
# Which Firefox TestFirefoxRunsThePage drives.
export RETRYLAB_FIREFOX ?= $(shell command -v firefox-esr || command -v firefox)

.DEFAULT_GOAL := help
.PHONY: help build run test unit wasmtest e2e bench lint clean deps chromium firefox webkit node

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z0-9-]+:.*## / {printf "  make %-9s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

deps: ## download the Go modules
	$(GO) mod download

build: deps $(BIN) $(WASM).br $(WASM).gz wasm_exec.js ## build the server, web/app.wasm and its compressed copies

$(BIN): $(SOURCES)
	$(GO) build -o $@ ./app

$(WASM): $(SOURCES) $(WASMMOD) Makefile # its flags are here (NOINLINE)
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) -ldflags='-s -w' -o $@ ./app

$(WASMMOD): go.mod go.sum app/go-app.patch | deps
	rm -rf .build && mkdir -p .build/go-app
	src="$$($(GO) list -m -f '{{.Dir}}' $(GOAPP))" && cp -r "$$src"/go.mod "$$src"/go.sum "$$src"/LICENSE "$$src"/pkg .build/go-app/
	chmod -R u+w .build/go-app
	@command -v git >/dev/null || { echo "make: git applies app/go-app.patch and is not installed (apt-get install git)" >&2; exit 1; }
	cd .build/go-app && GIT_CEILING_DIRECTORIES="$(CURDIR)/.build" git apply ../../app/go-app.patch
	test -f .build/go-app/pkg/app/http_wasm.go # git apply inside another repository can skip every file and still succeed
	cp go.sum .build/wasm.sum
	{ cat go.mod; echo 'replace $(GOAPP) => ./.build/go-app'; } > $@

# brotli -q 11 takes ~20 s; it only runs again when app.wasm changes.
$(WASM).br $(WASM).gz &: $(WASM) $(BIN)
	$(BIN) compress $(WASM)

wasm_exec.js: $(WASM_EXEC)/wasm_exec.js
	cp $< $@

run: build ## build everything and serve the playground (ARGS='-port 9000' to change flags)
	$(BIN) serve $(ARGS)

test: lint unit wasmtest e2e ## every test: lint, unit (-race), js/wasm under node, end-to-end in headless Chromium (and Firefox, WebKit)

unit: deps $(WASMMOD) ## unit tests, natively with the race detector
	$(GO) test -race -count=1 ./...
	$(GO) test -modfile=$(WASMMOD) -count=1 -run 'JSON|HTMLEscaper' $(GOAPP)/pkg/app # app/go-app.patch's JSON, against encoding/json, and its HTML escaper, against html

wasmtest: deps node $(WASMMOD) ## core, jsonlite, simulator, fleet, mock, durations, page model and browser glue tests compiled to js/wasm (with the go-app app.wasm links), run under node
	PATH="$(WASM_EXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test $(WASMFLAGS) -count=1 ./core/... ./app/jsonlite/... ./app/fleet/... ./app/mock/... ./app/human/... ./app/ui/... ./app/browser/...
	PATH="$(WASM_EXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test $(WASMFLAGS) -count=1 -run TextEncoder $(GOAPP)/pkg/errors # app/go-app.patch's errors as text

# The timeout guards against a hang, not speed: the suite takes 17–23 min
# on two busy cores (20m cut a passing run short on 2026-12-04); CI has 90.
e2e: build chromium firefox webkit $(AXE) ## end-to-end tests in headless Chromium (one each in Firefox and WebKit) against the real server
	$(GO) test -tags e2e -count=1 -v -timeout 45m ./tests/

# axe-core, the accessibility checker the e2e tests run in the page: fetched
# from the npm registry and checked against its pinned integrity.
$(AXE): tests/fetchaxe/main.go
	$(GO) run ./tests/fetchaxe -o $@

chromium: ## install Debian's chromium when it is missing (needs apt-get)
	@sh tests/need.sh chromium "$(RETRYLAB_CHROMIUM)" chromium chromium-browser

firefox: ## install Debian's firefox-esr when no Firefox is there (needs apt-get)
	@sh tests/need.sh firefox-esr "$(RETRYLAB_FIREFOX)" firefox-esr firefox

webkit: ## install Debian's webkit2gtk-driver (WebKitGTK's WebDriver and MiniBrowser) and xvfb when missing (needs apt-get)
	@sh tests/need.sh webkit2gtk-driver "" WebKitWebDriver
	@sh tests/need.sh xvfb "" xvfb-run
	@sh tests/need.sh xauth "" xauth # xvfb-run's, only recommended by xvfb

node: ## install Debian's nodejs when node is missing (needs apt-get)
	@sh tests/need.sh nodejs node

bench: build chromium ## benchmarks: core and mock (go test -bench), loopback load, browser figures
	$(GO) test -run='^$$' -bench=. -benchmem ./core/... ./app/...
	$(GO) test -tags e2e -count=1 -run='^$$' -bench=. -benchtime=1x -v ./tests/

lint: deps $(WASMMOD) ## gofmt, go vet (native, and js/wasm as app.wasm is built)
	@test -z "$$(gofmt -l app core tests)" || { echo "gofmt needed:"; gofmt -l app core tests; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet -modfile=$(WASMMOD) ./core/... ./app/...
	@! GOOS=js GOARCH=wasm $(GO) list -modfile=$(WASMMOD) -deps ./app | grep -xE 'net|net/http|crypto/tls|crypto/rand|crypto/aes|encoding/json|html|github.com/google/uuid' || { echo "app.wasm links the packages above (see app/go-app.patch)"; exit 1; }
	$(GO) vet -tags e2e ./tests/

clean: ## remove everything make built
	rm -rf bin .build $(WASM) $(WASM).gz $(WASM).br wasm_exec.js tests/out tests/axe
