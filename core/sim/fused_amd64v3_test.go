//go:build amd64.v3

package sim

// With GOAMD64=v3 or above the compiler fuses multiply-adds on amd64 too,
// so math.Log1p is no longer the unfused reference.
func init() { stdMathUnfused = false }
