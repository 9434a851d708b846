package ui

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
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
// own origin and the endpoint's title says why. Until its answer is in,
// the check is pending and nothing is taken as failed.
func TestSubdomainCheck(t *testing.T) {
	page, err := url.Parse("http://localhost:8080/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		reach      error
		spread     bool
		bases      string // where worker 7's requests go
		titleWants string
	}{
		{"reached", nil, true, "http://w1.localhost:8080/mock?", "from *.localhost origins"},
		{"not reached", errors.New("TypeError: Failed to fetch"), false, "http://localhost:8080/mock?", "this browser does not reach *.localhost origins (Safari resolves none)"},
		{"no answer in time", context.DeadlineExceeded, false, "http://localhost:8080/mock?", "this browser does not reach *.localhost origins"},
	} {
		t.Run(c.name, func(t *testing.T) {
			asked, answer := make(chan string, 1), make(chan struct{})
			check := newSubdomainCheck(page, func(_ context.Context, u string) error {
				asked <- u
				<-answer
				return c.reach
			})
			if got := <-asked; got != "http://w0.localhost:8080/web/icon.svg" {
				t.Errorf("the check asked for %s, want w0.localhost's icon", got)
			}
			if !check.pending() || check.failed() {
				t.Errorf("before the answer: pending %v, failed %v; want pending, not failed", check.pending(), check.failed())
			}
			close(answer)
			<-check.done
			if check.pending() || check.failed() == c.spread {
				t.Errorf("after the answer %v: pending %v, failed %v", c.reach, check.pending(), check.failed())
			}
			l := newLab()
			l.Load(page)
			l.subdomains = check
			if l.spread() != c.spread {
				t.Errorf("spread() = %v, want %v", l.spread(), c.spread)
			}
			s := l.s
			s.Workers = 12
			tr := newFetchTransport(page, l.spread(), s, "run-x", "")
			if got := tr.base(7, 0); !strings.HasPrefix(got, c.bases) {
				t.Errorf("worker 7 calls %s, want %s…", got, c.bases)
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
}
