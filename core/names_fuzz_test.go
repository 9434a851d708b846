package core

import "testing"

// FuzzParseLimiterKind: ParseLimiterKind never panics, accepts exactly
// the names String prints, and a parsed kind's String parses back to it.
func FuzzParseLimiterKind(f *testing.F) {
	for k := range 5 {
		f.Add(LimiterKind(k).String())
	}
	f.Add("Token-Bucket")
	f.Add(" none")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseLimiterKind(s)
		if err != nil {
			if k != 0 {
				t.Fatalf("ParseLimiterKind(%q) = %v with error %v", s, k, err)
			}
			return
		}
		if k.String() != s {
			t.Fatalf("ParseLimiterKind(%q) = %v, which prints as %q", s, k, k.String())
		}
		if again, err := ParseLimiterKind(k.String()); err != nil || again != k {
			t.Fatalf("ParseLimiterKind(%q) = %v, %v; want %v", k.String(), again, err, k)
		}
	})
}

// FuzzParseCeilingAction: the same for ParseCeilingAction.
func FuzzParseCeilingAction(f *testing.F) {
	for a := range 3 {
		f.Add(CeilingAction(a).String())
	}
	f.Add("Clamp")
	f.Add("stop ")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseCeilingAction(s)
		if err != nil {
			if a != 0 {
				t.Fatalf("ParseCeilingAction(%q) = %v with error %v", s, a, err)
			}
			return
		}
		if a.String() != s {
			t.Fatalf("ParseCeilingAction(%q) = %v, which prints as %q", s, a, a.String())
		}
		if again, err := ParseCeilingAction(a.String()); err != nil || again != a {
			t.Fatalf("ParseCeilingAction(%q) = %v, %v; want %v", a.String(), again, err, a)
		}
	})
}

// Every valid value's String parses back to it, and no other value's does.
func TestKindNamesRoundTrip(t *testing.T) {
	for v := range 256 {
		k := LimiterKind(v)
		got, err := ParseLimiterKind(k.String())
		if valid := v < len(limiterKindNames); valid != (err == nil) || valid && got != k {
			t.Errorf("LimiterKind(%d) %q: parsed %v, %v", v, k.String(), got, err)
		}
		a := CeilingAction(v)
		gotA, err := ParseCeilingAction(a.String())
		if valid := a == CeilingClamp || a == CeilingStop; valid != (err == nil) || valid && gotA != a {
			t.Errorf("CeilingAction(%d) %q: parsed %v, %v", v, a.String(), gotA, err)
		}
	}
}
