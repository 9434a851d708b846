//go:build !(js && wasm)

package main

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

// `retrylab sim` says how it is used: the experiments, and for one
// experiment its flags under a heading that names it; a flag out of range
// is refused with its name, its value and the range.
func TestSimUsage(t *testing.T) {
	for _, c := range []struct {
		args          []string
		wantErr       string // "" for -h
		want, wantNot []string
	}{
		{[]string{"-h"}, "", []string{"retrylab sim aws", "retrylab sim scenario"}, []string{"Flags"}},
		{[]string{}, "name an experiment", []string{"retrylab sim aws"}, []string{"Flags"}},
		{[]string{"nope"}, `unknown experiment "nope"`, []string{"retrylab sim scenario"}, []string{"Flags"}},
		{[]string{"aws", "-h"}, "", []string{"Flags of retrylab sim aws:", "-runs", "-parallel"}, nil},
		{[]string{"scenario", "-h"}, "", []string{"Flags of retrylab sim scenario:", "-max-attempts"}, nil},
		{[]string{"aws", "-runs", "0"}, "-runs 0: must be between 1 and 100000", nil, nil},
	} {
		var stdout, stderr strings.Builder
		err := runSim(c.args, &stdout, &stderr)
		switch {
		case c.wantErr == "" && !errors.Is(err, flag.ErrHelp):
			t.Errorf("%q: %v, want flag.ErrHelp", c.args, err)
		case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
			t.Errorf("%q: %v, want an error with %q", c.args, err, c.wantErr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%q: usage lacks %q:\n%s", c.args, w, stderr.String())
			}
		}
		for _, w := range c.wantNot {
			if strings.Contains(stderr.String(), w) {
				t.Errorf("%q: usage has %q with no flags under it:\n%s", c.args, w, stderr.String())
			}
		}
	}
}
