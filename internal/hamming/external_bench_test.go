package hamming

import (
	"fmt"
	"os"
	"testing"
)

// BenchmarkExternal times our strategies on a database and query set written
// by another tool, so that WordVeil and FAISS are measured on the same bytes
// in one run (bench/faiss_compare.py). Files hold 32-byte little-endian codes
// (the AppendBytes format, also FAISS's uint8 layout). Skipped unless
// WV_BENCH_DB and WV_BENCH_QUERIES are set. WV_BENCH_OP is "knn1" (exact 1-NN,
// default) or "range:R".
func BenchmarkExternal(b *testing.B) {
	dbPath, qPath := os.Getenv("WV_BENCH_DB"), os.Getenv("WV_BENCH_QUERIES")
	if dbPath == "" || qPath == "" {
		b.Skip("set WV_BENCH_DB and WV_BENCH_QUERIES (see bench/faiss_compare.py)")
	}
	load := func(p string) []Code {
		raw, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		c, err := DecodeCodes(raw)
		if err != nil {
			b.Fatalf("%s: %v", p, err)
		}
		return c
	}
	codes, qs := load(dbPath), load(qPath)
	op := os.Getenv("WV_BENCH_OP")
	radius := -1
	if op != "" && op != "knn1" {
		if _, err := fmt.Sscanf(op, "range:%d", &radius); err != nil {
			b.Fatalf("WV_BENCH_OP=%q: want knn1 or range:R", op)
		}
	}
	for _, st := range benchStrategies(b, codes) {
		b.Run(st.name, func(b *testing.B) {
			buf := make([]Neighbor, 0, 1024)
			i := 0
			for b.Loop() {
				q := qs[i%len(qs)]
				if radius >= 0 {
					buf, _ = st.s.Range(buf, q, radius, Options{})
				} else {
					buf, _ = st.s.KNN(buf, q, 1, Options{})
				}
				i++
			}
		})
	}
}
