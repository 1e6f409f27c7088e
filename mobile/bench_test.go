package mobile

import "testing"

// text20 is the 20-word text of docs/MOBILE.md's per-call figures (the same
// string as mobile/jvmtest's Measure.java).
const text20 = "Please send the quarterly report to my manager before the meeting tomorrow morning so we can discuss the budget together"

// BenchmarkPrivatize20Words is the Go side of the binding overhead figure:
// the same call as Measure.java makes through the Java binding.
func BenchmarkPrivatize20Words(b *testing.B) {
	for _, mech := range []string{"brr", "1dg"} {
		b.Run(mech, func(b *testing.B) {
			cfg := NewConfig()
			cfg.Mechanism = mech
			p, err := OpenPrivatizer(cfg)
			if err != nil {
				b.Fatal(err)
			}
			if r, err := p.Privatize(text20); err != nil || r.Words != 20 {
				b.Fatalf("%v %+v", err, r)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Privatize(text20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPrivatizeErrCode is a trivial call, for the fixed cost of a
// binding call (Measure.java times Mobile.errCode the same way).
func BenchmarkPrivatizeErrCode(b *testing.B) {
	for b.Loop() {
		if ErrCode("WV_IO: x") != CodeIO {
			b.Fatal("code")
		}
	}
}
