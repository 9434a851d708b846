package jsonlite_test

import (
	"fmt"
	"math"

	"retrylab/app/jsonlite"
)

// A value is written with a method per kind, a key before each of an
// object's values; what encoding/json's omitempty would leave out the
// caller leaves out.
func ExampleWriter() {
	type fault struct {
		Kind    string
		FromMS  float64
		UntilMS *float64 // omitempty
	}
	f := fault{Kind: "outage <503>", FromMS: 1.5e-7}
	var w jsonlite.Writer
	w.BeginObject()
	w.Key("kind").String(f.Kind)
	w.Key("from_ms").Float(f.FromMS)
	if f.UntilMS != nil {
		w.Key("until_ms").Float(*f.UntilMS)
	}
	w.Key("headers").BeginObject()
	h := map[string]string{"Retry-After": "2", "RateLimit": "limit=10"}
	for _, k := range jsonlite.Keys(h) {
		w.Key(k).String(h[k])
	}
	w.EndObject()
	w.EndObject()
	fmt.Println(string(w.Bytes()), w.Err())

	// Indented, as json.MarshalIndent(v, "", " ").
	iw := jsonlite.NewIndentWriter(" ")
	iw.BeginObject()
	iw.Key("ms").Floats([]float64{1, math.Inf(1)})
	iw.Key("empty").BeginArray()
	iw.EndArray()
	iw.EndObject()
	fmt.Println(string(iw.Bytes()))
	fmt.Println(iw.Err())
	// Output:
	// {"kind":"outage \u003c503\u003e","from_ms":1.5e-7,"headers":{"RateLimit":"limit=10","Retry-After":"2"}} <nil>
	// {
	//  "ms": [
	//   1,
	//   null
	//  ],
	//  "empty": []
	// }
	// jsonlite: unsupported value: +Inf
}
