//go:build !(js && wasm)

package main

import (
	"io"
	"strings"
	"testing"
)

func TestPickEncoding(t *testing.T) {
	both := map[string][]byte{"br": nil, "gzip": nil}
	gzOnly := map[string][]byte{"gzip": nil}
	tests := []struct {
		name   string
		accept string
		have   map[string][]byte
		want   string
	}{
		{"chromium", "gzip, deflate, br, zstd", both, "br"},
		{"brotli preferred over gzip whatever the order", "gzip, br", both, "br"},
		{"gzip only accepted", "gzip", both, "gzip"},
		{"nothing accepted", "", both, ""},
		{"identity only", "identity", both, ""},
		{"br refused with q=0", "br;q=0, gzip", both, "gzip"},
		{"both refused", "br;q=0, gzip;q=0", both, ""},
		{"wildcard", "*", both, "br"},
		{"wildcard but br refused", "*, br;q=0", both, "gzip"},
		{"case and spaces", " GZIP ; Q=0.5 ", both, "gzip"},
		{"br accepted but not built", "br, gzip", gzOnly, "gzip"},
		{"none built", "br, gzip", map[string][]byte{}, ""},
		{"malformed q is ignored (counts as 1)", "br;q=abc", both, "br"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pickEncoding(tt.accept, tt.have); got != tt.want {
				t.Errorf("pickEncoding(%q) = %q, want %q", tt.accept, got, tt.want)
			}
		})
	}
}

func TestParseConfig(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name    string
		args    []string
		env     func(string) string
		want    config
		wantErr string
	}{
		{"defaults", nil, env(), config{host: "localhost", port: 8080, root: "."}, ""},
		{"flags", []string{"-host", "0.0.0.0", "-port", "9000", "-root", "/srv"}, env(), config{host: "0.0.0.0", port: 9000, root: "/srv"}, ""},
		{"environment", nil, env("RETRYLAB_HOST", "127.0.0.1", "RETRYLAB_PORT", "9001", "RETRYLAB_ROOT", "/x"), config{host: "127.0.0.1", port: 9001, root: "/x"}, ""},
		{"flag beats environment", []string{"-port", "9002"}, env("RETRYLAB_PORT", "9001"), config{host: "localhost", port: 9002, root: "."}, ""},
		{"free port", []string{"-port", "0"}, env(), config{host: "localhost", port: 0, root: "."}, ""},
		{"port too large", []string{"-port", "70000"}, env(), config{}, "port 70000: must be between 1 and 65535"},
		{"negative port", []string{"-port", "-1"}, env(), config{}, "port -1: must be between 1 and 65535"},
		{"bad env port", nil, env("RETRYLAB_PORT", "http"), config{}, `RETRYLAB_PORT "http": must be a port number`},
		{"stray argument", []string{"extra"}, env(), config{}, `unexpected argument "extra"`},
		{"unknown flag", []string{"-nope"}, env(), config{}, "flag provided but not defined: -nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseConfig(tt.args, tt.env, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
