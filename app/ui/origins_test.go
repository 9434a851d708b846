package ui

import (
	"net/url"
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
