package ledger

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkCharge measures one more charge, fsync included, on a ledger
// that already holds n charges: all inside the period ("window"), or all
// expired ("expired", where the first charge compacts them away and the
// rest pay their share of later compactions). The history is written
// directly as log records, the layout Charge itself appends.
func BenchmarkCharge(b *testing.B) {
	base := time.Unix(1_700_000_000, 0)
	for _, n := range []int{1_000, 10_000, 100_000} {
		for _, expired := range []bool{false, true} {
			name := fmt.Sprintf("history=%d/window", n)
			if expired {
				name = fmt.Sprintf("history=%d/expired", n)
			}
			b.Run(name, func(b *testing.B) {
				dir := b.TempDir()
				hist := make([]charge, n)
				for i := range hist {
					hist[i] = charge{at: base.UnixNano() + int64(i), amount: 1}
				}
				st := newState(int64(24 * time.Hour))
				st.retention = int64(24 * time.Hour)
				writeLog(b, dir, st, hist...)
				l, err := Open(dir, Caps{PerPeriod: 1e12, Period: 24 * time.Hour, Lifetime: 1e15})
				if err != nil {
					b.Fatal(err)
				}
				clock := base.Add(time.Hour)
				if expired {
					clock = base.Add(48 * time.Hour)
				}
				l.now = func() time.Time { return clock }
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if _, err := l.Charge(1); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				if _, life, _ := l.Spent(); life < float64(n) {
					b.Fatalf("lifetime %v < history %d", life, n)
				}
			})
		}
	}
}
