//go:build !(js && wasm)

package mock

// Interoperability with a retrying client nobody here wrote:
// hashicorp/go-retryablehttp honours the mock's Retry-After.

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// exchange is one request/response as the client and the server saw it.
type exchange struct {
	arrived    time.Time // at the server
	answered   time.Time // response received by the client
	status     int
	retryAfter string
}

// retryablePair runs one retryablehttp GET against the mock and returns what
// happened, attempt by attempt.
func retryablePair(t *testing.T, query string) []exchange {
	t.Helper()
	h := New(Options{})
	defer h.Close()
	var mu sync.Mutex
	var log []exchange
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		log = append(log, exchange{arrived: time.Now()})
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()

	// Prime: take the window's only request.
	resp, err := http.Get(srv.URL + "/mock?" + query)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("priming request: %v", err)
	}
	resp.Body.Close()

	c := retryablehttp.NewClient()
	c.Logger = nil
	c.RetryMax = 3
	// Its own backoff would wait 20ms, 40ms, ...: a wait near the server's
	// figure can only come from Retry-After.
	c.RetryWaitMin = 10 * time.Millisecond
	c.RetryWaitMax = 10 * time.Second
	c.ResponseLogHook = func(_ retryablehttp.Logger, resp *http.Response) {
		mu.Lock()
		e := &log[len(log)-1]
		e.answered, e.status, e.retryAfter = time.Now(), resp.StatusCode, resp.Header.Get("Retry-After")
		mu.Unlock()
	}
	resp, err = c.Get(srv.URL + "/mock?" + query)
	if err != nil {
		t.Fatalf("retryablehttp: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("retryablehttp ended with %d", resp.StatusCode)
	}
	mu.Lock()
	defer mu.Unlock()
	return append([]exchange(nil), log[1:]...)
}

func TestRetryablehttpHonoursRetryAfterSeconds(t *testing.T) {
	// A 1 s window holding one request, and Retry-After: 1 (fixed), so the
	// retry lands in the next window.
	ex := retryablePair(t, "key=interop-s&limiter=fixed&limit=1&window=1s&retry_after=fixed&retry_value=1")
	if len(ex) != 2 || ex[0].status != 429 || ex[0].retryAfter != "1" || ex[1].status != 200 {
		t.Fatalf("exchanges %+v, want 429 (Retry-After: 1) then 200", ex)
	}
	waited := ex[1].arrived.Sub(ex[0].answered)
	t.Logf("server said Retry-After: 1; retryablehttp waited %v", waited)
	if waited < 950*time.Millisecond || waited > 1500*time.Millisecond {
		t.Errorf("retryablehttp waited %v, want about 1s", waited)
	}
}

func TestRetryablehttpHonoursRetryAfterDate(t *testing.T) {
	ex := retryablePair(t, "key=interop-d&limiter=fixed&limit=1&window=1s&retry_after=date")
	if len(ex) != 2 || ex[0].status != 429 || ex[1].status != 200 {
		t.Fatalf("exchanges %+v, want 429 then 200", ex)
	}
	at, err := http.ParseTime(ex[0].retryAfter)
	if err != nil {
		t.Fatalf("Retry-After %q: %v", ex[0].retryAfter, err)
	}
	said := at.Sub(ex[0].answered)
	waited := ex[1].arrived.Sub(ex[0].answered)
	t.Logf("server said Retry-After: %s (%v after the answer); retryablehttp waited %v", ex[0].retryAfter, said, waited)
	// The date has whole seconds; the client sleeps until it.
	if early := at.Sub(ex[1].arrived); early > 20*time.Millisecond {
		t.Errorf("retry arrived %v before the date", early)
	}
	if late := ex[1].arrived.Sub(at); late > 500*time.Millisecond {
		t.Errorf("retry arrived %v after the date", late)
	}
	if said < 0 || said > 2*time.Second {
		t.Errorf("date %v after the answer, want within the 1s window rounded up to a whole second", said)
	}
}
