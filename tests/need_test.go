package tests

// Not behind the e2e tag: need.sh is plain shell, checked by `make unit`.

import (
	"os/exec"
	"strings"
	"testing"
)

// need.sh without the tool and without apt-get fails and says why; only
// chromium's message suggests RETRYLAB_CHROMIUM, and firefox-esr's
// RETRYLAB_FIREFOX, which name a browser and nothing else (it told a
// missing Node.js to set it).
func TestNeedWithoutAptGet(t *testing.T) {
	tests := []struct {
		name string
		args []string // need.sh's: PACKAGE COMMAND...
		want string   // the whole of stderr
	}{
		{"chromium", []string{"chromium", "", "chromium", "chromium-browser"},
			"chromium is missing and apt-get is not available: install it (or set RETRYLAB_CHROMIUM for a browser elsewhere)\n"},
		{"chromium named by RETRYLAB_CHROMIUM, not there", []string{"chromium", "/nowhere/chrome", "chromium", "chromium-browser"},
			"chromium is missing and apt-get is not available: install it (or set RETRYLAB_CHROMIUM for a browser elsewhere)\n"},
		{"firefox-esr", []string{"firefox-esr", "", "firefox-esr", "firefox"},
			"firefox-esr is missing and apt-get is not available: install it (or set RETRYLAB_FIREFOX for a browser elsewhere)\n"},
		{"nodejs", []string{"nodejs", "node"},
			"nodejs is missing and apt-get is not available: install it\n"},
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(sh, append([]string{"need.sh"}, tt.args...)...)
			cmd.Env = []string{"PATH=" + t.TempDir()} // nothing on it: no tool, no apt-get
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Errorf("need.sh %q: %v, want exit status 1", tt.args, err)
			}
			if stderr.String() != tt.want || stdout.Len() != 0 {
				t.Errorf("need.sh %q printed\nstdout %q\nstderr %q\nwant stderr %q", tt.args, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}
