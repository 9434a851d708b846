package mock

import "testing"

// The stream's messages and a response body as the server writes them,
// for the decoders' benchmarks (also run under node by make wasmtest's
// build: GOOS=js GOARCH=wasm go test -bench=Decode ./app/mock/).
const (
	benchArrival = `{"type":"arrival","key":"run-6f1c2a","tag":"w12-j3-a2","seq":48213,"at":"2026-12-04T04:01:02.123456789Z","outcome":"limited","status":429,"allowed":false,"limit":100,"remaining":0,"reset_ms":812.25,"retry_after_ms":12.5,"latency_ms":40}`
	benchEnd     = `{"type":"end","key":"run-6f1c2a","tag":"w12-j3-a2","seq":48213,"at":"2026-12-04T04:01:02.163501Z","outcome":"limited","status":429,"end":"sent","elapsed_ms":40.045}`
	benchEscaped = `{"type":"arrival","key":"run-6f1c2a","tag":"w12\u002dj3-a2","seq":48213,"at":"2026-12-04T04:01:02.123456789Z","outcome":"limited","status":429,"allowed":false,"limit":100,"remaining":0,"reset_ms":812.25,"retry_after_ms":12.5,"latency_ms":40}`
)

var benchBody = []byte(`{"key":"run-6f1c2a","tag":"w12-j3-a2","seq":48213,"allowed":true,"status":200,"outcome":"ok","limit":100,"remaining":37,"reset_ms":412.5,"retry_after_ms":0,"latency_ms":40,"received":"2026-12-04T04:01:02.123456789Z"}`)

func BenchmarkDecodeEvent(b *testing.B) {
	for _, c := range []struct{ name, msg string }{{"arrival", benchArrival}, {"end", benchEnd}, {"escaped", benchEscaped}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var e Event
			for b.Loop() {
				if err := DecodeEvent(c.msg, &e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeBody(b *testing.B) {
	b.ReportAllocs()
	var body Body
	for b.Loop() {
		if err := DecodeBody(benchBody, &body); err != nil {
			b.Fatal(err)
		}
	}
}
