package mock

// This file is compiled for the browser too: the page decodes every
// response body and arrivals-stream message with it.

import "retrylab/app/jsonlite"

// DecodeEvent decodes one message of the arrivals stream into e, as
// json.Unmarshal would (e is zeroed first, and again on an error). A busy
// run sends thousands a second, and app.wasm links no encoding/json: it is
// read by hand, with jsonlite.Reader. FuzzDecodeEvent checks that the two
// agree.
func DecodeEvent(data string, e *Event) error {
	*e = Event{}
	// jsonlite.ReadObject's loop, written out: through a func value the
	// Reader would escape to the heap, an allocation per message.
	r := jsonlite.NewReader(data)
	if r.Object() {
		for {
			key, ok := r.Key()
			if !ok {
				break
			}
			if !e.member(&r, key) {
				if f := jsonlite.Fold(key); f == key || !e.member(&r, f) {
					r.Skip()
				}
			}
		}
	}
	if err := r.End(); err != nil {
		*e = Event{}
		return err
	}
	return nil
}

// DecodeBody decodes a response body into b as DecodeEvent decodes a
// stream message. FuzzDecodeBody checks it against json.Unmarshal.
func DecodeBody(data []byte, b *Body) error {
	*b = Body{}
	r := jsonlite.NewReader(string(data))
	if r.Object() {
		for {
			key, ok := r.Key()
			if !ok {
				break
			}
			if !b.member(&r, key) {
				if f := jsonlite.Fold(key); f == key || !b.member(&r, f) {
					r.Skip()
				}
			}
		}
	}
	if err := r.End(); err != nil {
		*b = Body{}
		return err
	}
	return nil
}

// member reads the value of the member key into e's field of that name,
// as json.Unmarshal would, and reports whether there is one (for
// jsonlite.ReadObject).
func (e *Event) member(r *jsonlite.Reader, key string) bool {
	switch key {
	case "type":
		r.String(&e.Type)
	case "key":
		r.String(&e.Key)
	case "tag":
		r.String(&e.Tag)
	case "seq":
		r.Uint(&e.Seq)
	case "at":
		r.Time(&e.At)
	case "outcome":
		r.String(&e.Outcome)
	case "status":
		r.Int(&e.Status)
	case "allowed":
		r.Bool(&e.Allowed)
	case "limit":
		r.Int(&e.Limit)
	case "remaining":
		r.Int(&e.Remaining)
	case "reset_ms":
		r.Float(&e.ResetMS)
	case "retry_after_ms":
		r.Float(&e.RetryAfterMS)
	case "latency_ms":
		r.Float(&e.LatencyMS)
	case "end":
		r.String(&e.End)
	case "elapsed_ms":
		r.Float(&e.ElapsedMS)
	case "dropped":
		r.Uint(&e.Dropped)
	case "until":
		r.Time(&e.Until)
	case "scale":
		r.Float(&e.Scale)
	case "n":
		r.Int(&e.N)
	case "admitted":
		r.Int(&e.Admitted)
	default:
		return false
	}
	return true
}

// member reads the value of the member key into b's field of that name,
// as json.Unmarshal would, and reports whether there is one.
func (b *Body) member(r *jsonlite.Reader, key string) bool {
	switch key {
	case "key":
		r.String(&b.Key)
	case "tag":
		r.String(&b.Tag)
	case "seq":
		r.Uint(&b.Seq)
	case "allowed":
		r.Bool(&b.Allowed)
	case "status":
		r.Int(&b.Status)
	case "outcome":
		r.String(&b.Outcome)
	case "limit":
		r.Int(&b.Limit)
	case "remaining":
		r.Int(&b.Remaining)
	case "reset_ms":
		r.Float(&b.ResetMS)
	case "retry_after_ms":
		r.Float(&b.RetryAfterMS)
	case "latency_ms":
		r.Float(&b.LatencyMS)
	case "received":
		r.Time(&b.Received)
	default:
		return false
	}
	return true
}
