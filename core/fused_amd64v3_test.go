//go:build amd64.v3

package core

// With GOAMD64=v3 or above the compiler fuses multiply-adds on amd64 too,
// so the standard library's pure-Go math is no longer an unfused reference.
func init() { stdMathUnfused = false }
