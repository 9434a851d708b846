package ui

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"retrylab/app/browser"
	"retrylab/app/fleet"
)

func TestMockOrigin(t *testing.T) {
	for _, tt := range []struct {
		page   string
		worker int
		want   string
	}{
		{"http://localhost:8080/", 0, "http://w0.localhost:8080"},
		{"http://localhost:8080/?workers=50", 5, "http://w0.localhost:8080"},
		{"http://localhost:8080/", 6, "http://w1.localhost:8080"},
		{"http://localhost/", 13, "http://w2.localhost"},
		{"http://127.0.0.1:8080/", 7, "http://w1.localhost:8080"},
		{"http://[::1]:8080/", 12, "http://w2.localhost:8080"},
		{"http://[::ffff:127.0.0.1]:8080/", 0, "http://w0.localhost:8080"},
		{"http://w3.localhost:8080/", 0, "http://w0.localhost:8080"},
		// Not loopback, or not plain http: every worker on the page's origin.
		{"http://192.168.1.20:8080/", 40, "http://192.168.1.20:8080"},
		{"http://127.0.0.5:8080/", 40, "http://127.0.0.5:8080"}, // *.localhost would reach 127.0.0.1, not it
		{"http://[::1%25lo]:8080/", 40, "http://[::1%25lo]:8080"},
		{"http://[fe80::1%25eth0]:8080/", 40, "http://[fe80::1%25eth0]:8080"},
		{"http://retrylab.example/", 40, "http://retrylab.example"},
		{"https://localhost:8443/", 40, "https://localhost:8443"},
		{"http://localhost.example/", 40, "http://localhost.example"},
	} {
		page, err := url.Parse(tt.page)
		if err != nil {
			t.Fatal(err)
		}
		if got := MockOrigin(page, tt.worker); got != tt.want {
			t.Errorf("MockOrigin(%s, %d) = %s, want %s", tt.page, tt.worker, got, tt.want)
		}
	}
}

// TestSubdomainCheck: a browser that does not reach *.localhost names
// (Safari) sent every request of a run to w0.localhost & co. and got a run
// of failures; once the check has found that, the workers call the page's
// own origin and the endpoint's title says why. The answer must be the
// mock's, for the check's key: a proxy's or another server's does not
// count. Until the answer is in the check is pending, nothing is taken as
// failed, and a run started meanwhile is moved to the page's origin by
// settle, before its first request. Only a check with no answer in time is
// asked again.
func TestSubdomainCheck(t *testing.T) {
	page, err := url.Parse("http://localhost:8080/")
	if err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { subdomainCheckTimeout = d }(subdomainCheckTimeout)
	subdomainCheckTimeout = 50 * time.Millisecond
	mockSaid := func(key string) browser.Response {
		return browser.Response{Status: 200, Body: `{"key":"` + key + `","allowed":true,"status":200,"outcome":"ok","seq":1}`}
	}
	for _, c := range []struct {
		name       string
		answer     func(u, key string) (browser.Response, error)
		hang       bool // no answer: the check's time runs out
		expires    bool // no answer in time: the next run asks again
		spread     bool
		base       string // where worker 7's requests go
		titleWants string
	}{
		{"the mock answered", func(_, key string) (browser.Response, error) { return mockSaid(key), nil }, false, false, true, "http://w1.localhost:8080/mock?", "from *.localhost origins"},
		{"name not resolved", func(u, key string) (browser.Response, error) {
			if strings.HasPrefix(u, "http://localhost:8080/") { // the page's own origin answers
				return mockSaid(key), nil
			}
			return browser.Response{}, &browser.JSError{Name: "TypeError", Message: "Failed to fetch"}
		}, false, false, false, "http://localhost:8080/mock?", "did not reach the mock on *.localhost origins (Safari, for one, resolves no *.localhost name)"},
		// Neither answers: the server is down (a page from the service
		// worker's cache), which says nothing of *.localhost; the next
		// run asks again (a review saw the browser blamed in Chrome).
		{"server down", func(string, string) (browser.Response, error) {
			return browser.Response{}, &browser.JSError{Name: "TypeError", Message: "Failed to fetch"}
		}, false, true, true, "http://w1.localhost:8080/mock?", "from *.localhost origins"},
		{"a proxy answered", func(string, string) (browser.Response, error) {
			return browser.Response{Status: 502, Body: "Bad Gateway"}, nil
		}, false, false, false, "http://localhost:8080/mock?", "did not reach the mock on *.localhost origins"},
		{"another server answered", func(string, string) (browser.Response, error) {
			return browser.Response{Status: 200, Body: "<html>hello</html>"}, nil
		}, false, false, false, "http://localhost:8080/mock?", "did not reach the mock on *.localhost origins"},
		{"another key's answer", func(string, string) (browser.Response, error) { return mockSaid("someone-else"), nil }, false, false, false, "http://localhost:8080/mock?", "did not reach the mock on *.localhost origins"},
		{"no answer in time", nil, true, true, false, "http://localhost:8080/mock?", "did not reach the mock on *.localhost origins"},
		// The fetch worker keeps the deadline on its own clock, and may
		// give up a moment before the check's context does.
		{"the fetch worker's deadline first", func(string, string) (browser.Response, error) { return browser.Response{}, context.DeadlineExceeded }, false, true, false, "http://localhost:8080/mock?", "did not reach the mock on *.localhost origins"},
	} {
		t.Run(c.name, func(t *testing.T) {
			asked, answer, painted := make(chan string, 2), make(chan struct{}), make(chan struct{})
			check := newSubdomainCheck(page, "origins-k", func() { <-painted }, func(ctx context.Context, u string) (browser.Response, error) {
				asked <- u
				if c.hang {
					<-ctx.Done()
					return browser.Response{}, ctx.Err()
				}
				<-answer
				return c.answer(u, "origins-k")
			})
			l := newLab()
			l.Load(page)
			l.subdomains = check
			s := l.s
			s.Workers = 12
			// A run started before the page has painted: spread, for now.
			tr := newFetchTransport(page, check, s, "run-x", "")
			if !check.pending() || check.failed() || !l.spread() || l.subdomainsState() != "checking" {
				t.Errorf("before the answer: pending %v, failed %v, spread %v, state %q; want pending, spread", check.pending(), check.failed(), l.spread(), l.subdomainsState())
			}
			close(painted)
			if got := <-asked; got != "http://w0.localhost:8080/mock?key=origins-k&limiter=none&latency=0ms" {
				t.Errorf("the check asked for %s, want the mock on w0.localhost with its key", got)
			}
			close(answer)
			settled := make(chan struct{})
			go func() {
				tr.settle(context.Background())
				close(settled)
			}()
			select {
			case <-settled:
			case <-time.After(5 * time.Second):
				t.Fatal("settle did not return once the check was over")
			}
			if check.pending() || check.failed() == c.spread || l.spread() != c.spread {
				t.Errorf("after the answer: pending %v, failed %v, spread %v; want spread %v", check.pending(), check.failed(), l.spread(), c.spread)
			}
			if check.expired() != c.expires {
				t.Errorf("expired() = %v: want it only without an answer in time (the next run asks again)", check.expired())
			}
			want := map[bool]string{true: "reached", false: "not reached"}[c.spread]
			if c.name == "server down" {
				want = "server down"
			}
			if got := l.subdomainsState(); got != want {
				t.Errorf("state() says %q, want %q", got, want)
			}
			if got := tr.base(7, 0); !strings.HasPrefix(got, c.base) {
				t.Errorf("worker 7 of the run started before the answer calls %s, want %s…", got, c.base)
			}
			if got := newFetchTransport(page, check, s, "run-y", "").base(7, 0); !strings.HasPrefix(got, c.base) {
				t.Errorf("worker 7 of a run started after the answer calls %s, want %s…", got, c.base)
			}
			if got := l.endpointLine().title; !strings.Contains(got, c.titleWants) {
				t.Errorf("the endpoint's title is %q, want it to say %q", got, c.titleWants)
			}
		})
	}
	var none *subdomainCheck // not asked: a page on a LAN address
	if none.pending() || none.failed() {
		t.Errorf("no check: pending %v, failed %v", none.pending(), none.failed())
	}
	// Stop while the check goes on: settle returns at once, the run as it was.
	hung := newSubdomainCheck(page, "k", func() {}, func(ctx context.Context, _ string) (browser.Response, error) {
		select {} // never answers (its goroutine is left behind)
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tr := newFetchTransport(page, hung, fleet.Scenario{Workers: 12}, "run-z", "")
	tr.settle(ctx)
	if got := tr.base(7, 0); !strings.HasPrefix(got, "http://w1.localhost:8080/") {
		t.Errorf("a stopped run's worker 7 calls %s", got)
	}
}
