package tests

// Not behind the e2e tag: it reads the Makefile and .gitignore only.

import (
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// make clean removes what make and the tests write, all of it gitignored;
// a path that is not (tests/e2e.log, which nothing writes) is a leftover.
func TestCleanRemovesOnlyWhatIsBuilt(t *testing.T) {
	out, err := exec.Command("make", "-s", "-n", "-C", "..", "clean").Output()
	if err != nil {
		t.Fatalf("make -n clean: %v", err)
	}
	var removed []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "rm" && f[1] == "-rf" {
			removed = append(removed, f[2:]...)
		}
	}
	if len(removed) == 0 {
		t.Fatalf("make -n clean removes nothing:\n%s", out)
	}
	ignore, err := os.ReadFile("../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, l := range strings.Split(string(ignore), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, strings.Trim(l, "/"))
		}
	}
	for _, p := range removed {
		t.Run(p, func(t *testing.T) {
			for _, pat := range patterns {
				if ok, _ := path.Match(pat, strings.Trim(p, "/")); ok {
					return
				}
			}
			t.Errorf("make clean removes %s, which .gitignore does not list: nothing builds it", p)
		})
	}
}
