// Package jsonlite reads and writes the JSON that Retry Lab's page
// exchanges, without encoding/json.
//
// encoding/json and what it keeps alive (its reflection-driven encoders and
// decoders, their sort instances, every type's MarshalJSON and UnmarshalJSON
// methods) cost app.wasm about 116 KB of gzip, 5.8% of it, measured on
// 2026-12-04 by stubbing every call out (app/README.md). The page's JSON is
// small and known: the mock's messages and answers, which are flat objects,
// and the exports and debug snapshots it writes. Writer writes JSON as
// encoding/json would, byte for byte, for the values it is given; Reader
// reads strict JSON (RFC 8259) a value at a time. Tests check both against
// encoding/json, which native code and tests still use freely: only the
// browser build must not link it (make lint).
package jsonlite
