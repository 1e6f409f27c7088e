package memo

import "testing"

// words100 is a text's worth of word ids.
func words100() []int32 {
	w := make([]int32, 100)
	for i := range w {
		w[i] = int32(i * 37 % 5000)
	}
	return w
}

// BenchmarkResolveMemoized: 100 words, all answered from the memo (the
// common case): locking, refresh and one HMAC per distinct word.
func BenchmarkResolveMemoized(b *testing.B) {
	for _, dir := range []string{"", "dir"} {
		b.Run(map[string]string{"": "memory", "dir": "file"}[dir], func(b *testing.B) {
			if dir != "" {
				dir = b.TempDir()
			}
			m := mustOpen(b, dir, testID, secretOf(1))
			w := words100()
			mustResolve(b, m, w...)
			for b.Loop() {
				if _, _, err := m.Resolve(w, randDraw, noCharge); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResolveFresh: 10 new words per call, appended and fsynced.
func BenchmarkResolveFresh(b *testing.B) {
	m := mustOpen(b, b.TempDir(), testID, secretOf(1))
	next := int32(0)
	w := make([]int32, 10)
	for b.Loop() {
		for i := range w {
			w[i], next = next, next+1
		}
		if _, _, err := m.Resolve(w, randDraw, noCharge); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen: opening a memo of 100,000 entries (reads and
// authenticates every record).
func BenchmarkOpen(b *testing.B) {
	dir := b.TempDir()
	m := mustOpen(b, dir, testID, secretOf(1))
	w := make([]int32, 100_000)
	for i := range w {
		w[i] = int32(i)
	}
	mustResolve(b, m, w...)
	for b.Loop() {
		m, err := Open(dir, testID, secretOf(1))
		if err != nil {
			b.Fatal(err)
		}
		m.Close()
	}
}
