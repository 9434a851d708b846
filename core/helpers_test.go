package core

import (
	"strings"
	"testing"
	"time"
)

// t0 is the instant the table tests count from.
var t0 = time.Date(2026, time.November, 2, 9, 30, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

const (
	ms = time.Millisecond
	s  = time.Second
)

// wantErr checks that err is nil when want is "", else that it contains want.
func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && err == nil:
		t.Fatalf("no error, want one containing %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Fatalf("error %q, want it to contain %q", err, want)
	case err != nil && !strings.HasPrefix(err.Error(), "core: "):
		t.Fatalf("error %q does not start with \"core: \"", err)
	}
}
