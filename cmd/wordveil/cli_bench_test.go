package main

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// cliBenchText is about 1 MB of lines of 8 words, like
// scripts/cli-threads.sh's generated input (a different generator: the
// same kind of text, not the same bytes).
func cliBenchText() []byte {
	if f := os.Getenv("WORDVEIL_BENCH_FILE"); f != "" {
		b, err := os.ReadFile(f)
		if err == nil {
			return b
		}
	}
	words := strings.Fields("the cat sat on a mat and then it went home to sleep because it was very tired today")
	r := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	for range 30000 {
		for j := range 8 {
			if j > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(words[r.IntN(len(words))])
		}
		sb.WriteByte('\n')
	}
	return []byte(sb.String())
}

// BenchmarkCLIPrivatize runs `wordveil privatize` in process on about
// 1 MB of text, per mechanism and -threads (go test -cpuprofile on it
// shows where the CLI's time goes, open included).
func BenchmarkCLIPrivatize(b *testing.B) {
	text := cliBenchText()
	for _, m := range []string{"1dg", "brr"} {
		for _, t := range []string{"1", "2"} {
			b.Run(m+"/threads="+t, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					if err := privatizeCmd([]string{"-mechanism", m, "-threads", t}, bytes.NewReader(text), io.Discard, io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
