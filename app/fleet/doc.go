// Package fleet is the model and the runner behind the playground page: a
// Scenario (every client-fleet and mock-endpoint parameter), the Fields that
// describe, validate and encode it, the Presets that tell the story, RunFrom
// (and Run, which starts now), which drives a fleet of workers through core's
// retry loop and records every event, and Simulate, the same in virtual time.
//
// The package is pure Go: it compiles natively and for js/wasm, touches no
// JavaScript and no go-app. The page plugs in a fetch()-based Transport and a
// JS-timer core.Clock; the native tests, which run fleets against a real
// server and compare them with Simulate, use a net/http one
// (httptransport_test.go) and the real clock.
//
// # One place for every parameter
//
// Fields is the single description of each parameter: URL key, label, unit,
// allowed range, default and one line of help. The page's controls, Validate,
// Query/FromQuery and the README table (FieldsMarkdown) are all generated from
// it. Ranges are not restated here: policy fields use core's exported ranges
// (core.BackoffBaseRange, …), endpoint fields are parsed by app/mock's own
// parser, and only the fleet's own knobs have their ranges in this package
// (WorkersRange, JobsRange, TotalJobsRange, TimeoutRange, EveryRange,
// OutageRange, OutageAtRange, SimWorkersRange, and the live arrival cap
// LiveArrivalMax).
//
// # Runs are reproducible
//
// Worker w's job j draws its random numbers from
// core.NewRand(core.SubSeed(Scenario.Seed, w, j)), so the same seed gives the
// same waits whatever order the goroutines run in (and the simulator, which
// uses the same derivation, gives the same schedule in virtual time).
// Workers and jobs are numbered from 0; attempts from 1, as core numbers them.
// Worker w runs Scenario.JobsOf(w) jobs: Jobs, or its share of a total.
package fleet

// # Start-up in the browser
//
// Fields and Presets are built by the package initialiser, on the page's
// cold-load path. Their helpers that loop (choiceField, mockChoice,
// enumerate, stage) are kept out of it with //go:noinline. Chromium's
// baseline wasm code charges each loop iteration against a function's
// tier-up budget by the size of the function's code up to the loop, and Go
// compiles every jump through one loop per function; with those loops
// inlined, the 56 KB initialiser ran once yet was sent to the optimising
// compiler, 0.3–0.4 s of compile time during a load on a 2-core machine
// (app/README.md). BenchmarkColdLoad counts what is.
