//go:build !(js && wasm)

package main

import (
	"flag"
	"fmt"
	"strconv"
)

// decimalFlag is an integer flag read in decimal, as the environment
// variables and the page's fields are: flag.IntVar reads Go literals, so
// "-port 010" listened on port 8 (octal) and "-runs 0x10" ran 16, where
// RETRYLAB_PORT=010 is port 10. A value that is not a decimal integer is
// kept as given and refused by check, which names the flag, the value and
// what is allowed (flag's own message said "parse error" only).
type decimalFlag[T int | uint64] struct {
	p   *T
	bad *string // the text given, when it is not a decimal integer
}

// decimalVar defines flag name on fs, stored in p (default def).
func decimalVar[T int | uint64](fs *flag.FlagSet, p *T, name string, def T, usage string) *decimalFlag[T] {
	*p = def
	f := &decimalFlag[T]{p: p}
	fs.Var(f, name, usage)
	return f
}

func (f *decimalFlag[T]) String() string {
	if f == nil || f.p == nil {
		return "0"
	}
	return fmt.Sprint(*f.p)
}

func (f *decimalFlag[T]) Set(s string) error {
	var n T
	var err error
	switch p := any(&n).(type) {
	case *int:
		*p, err = strconv.Atoi(s)
	case *uint64:
		*p, err = strconv.ParseUint(s, 10, 64)
	}
	if err != nil {
		f.bad = &s
		return nil
	}
	*f.p, f.bad = n, nil
	return nil
}

// check refuses a value that was not a decimal integer: `-port "0x50":
// must be <allowed>`.
func (f *decimalFlag[T]) check(name, allowed string) error {
	if f.bad != nil {
		return fmt.Errorf("-%s %q: must be %s", name, *f.bad, allowed)
	}
	return nil
}
