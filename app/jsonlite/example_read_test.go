package jsonlite_test

import (
	"fmt"
	"time"

	"retrylab/app/jsonlite"
)

// A decoder written by hand for a struct, as json.Unmarshal would decode
// it: keys matched as encoding/json matches them, unknown members skipped,
// null leaving a field as it is.
func ExampleReader() {
	type answer struct {
		Key     string    `json:"key"`
		At      time.Time `json:"at"`
		N       int       `json:"n"`
		Origins []string  `json:"origins"`
	}
	var a answer
	var member func(r *jsonlite.Reader, key string)
	member = func(r *jsonlite.Reader, key string) {
		switch key {
		case "key":
			r.String(&a.Key)
		case "at":
			r.Time(&a.At)
		case "n":
			r.Int(&a.N)
		case "origins":
			if r.Array() {
				a.Origins = a.Origins[:0]
				for r.Item() {
					var s string
					r.String(&s)
					a.Origins = append(a.Origins, s)
				}
			} else {
				a.Origins = nil
			}
		default:
			if f := jsonlite.Fold(key); f != key {
				member(r, f) // "N", say
			} else {
				r.Skip()
			}
		}
	}
	r := jsonlite.NewReader(`{"key":"run-\u00e9","at":"2026-12-04T04:01:02.5Z","N":20,"extra":{"a":[1,2]},"origins":["http://10.0.0.2:8080"]}`)
	if r.Object() {
		for {
			key, ok := r.Key()
			if !ok {
				break
			}
			member(&r, key)
		}
	}
	if err := r.End(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %s %d %q\n", a.Key, a.At.Format(time.StampMilli), a.N, a.Origins)

	r = jsonlite.NewReader(`{"n": 1e3}`)
	r.Object()
	r.Key()
	r.Int(&a.N)
	fmt.Println(r.End())
	// Output:
	// run-é Dec  4 04:01:02.500 20 ["http://10.0.0.2:8080"]
	// jsonlite: want an integer (int64) at offset 6
}
