package pipeline

import (
	"bufio"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var (
	benchWords = flag.Int("throughput.words", 1_000_000, "BenchmarkThroughput: words in the generated input")
	benchMechs = flag.String("throughput.mechanism", "1dg", "BenchmarkThroughput: the mechanism (brr, 1dg, ...)")
	benchCLIth = flag.Int("throughput.cli-threads", 0, "BenchmarkThroughput: the CLI's -threads (0: its default, every core)")
)

// cpuSeconds is the user and system time of this process so far, or of
// its finished children.
func cpuSeconds(who int) float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// BenchmarkThroughput privatizes one generated input (-throughput.words
// words of typed text from 1,000 users, Zipf-skewed) with the pipeline on
// Prism, in this process, and with the CLI (`wordveil privatize -json`,
// one record per line, the same texts; -throughput.cli-threads sets its
// -threads), and reports words per second of
// wall time and per CPU-second (user + system: words per second per core).
// The pipeline charges every user against a cap no one reaches, so every
// record is privatized and the per-user accounting is in the figure.
//
//	cd beam && GOWORK=off go test -run '^$' -bench Throughput -benchtime 1x -count 3 -timeout 60m ./pipeline -throughput.words 10000000
func BenchmarkThroughput(b *testing.B) {
	dir := b.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	c := genCorpus(b, in, *benchWords, 1000, 8, 77)
	lines := filepath.Join(dir, "lines.txt")
	f, err := os.Create(lines)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, r := range c.records {
		w.WriteString(r.Text)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	cli := buildCLI(b)
	mech := *benchMechs
	report := func(b *testing.B, wall time.Duration, cpu float64) {
		b.ReportMetric(float64(c.words)*float64(b.N)/wall.Seconds(), "words/s")
		b.ReportMetric(float64(c.words)*float64(b.N)/cpu, "words/cpu-s")
		b.ReportMetric(0, "ns/op") // the whole job's time is in the two figures above
	}

	b.Run("mechanism="+mech+"/pipeline", func(b *testing.B) {
		cpu0, t0 := cpuSeconds(syscall.RUSAGE_SELF), time.Now()
		for i := 0; i < b.N; i++ {
			o := Options{Input: filepath.Join(in, "*"), Output: filepath.Join(dir, "out-"+strconv.Itoa(i)+"-"+strconv.Itoa(b.N)),
				Engine: Engine{Mechanism: mech}, CapWords: 1 << 30}
			n := run(b, o)
			if n.Released != int64(len(c.records)) {
				b.Fatalf("released %d of %d records", n.Released, len(c.records))
			}
			os.RemoveAll(o.Output)
		}
		report(b, time.Since(t0), cpuSeconds(syscall.RUSAGE_SELF)-cpu0)
	})
	b.Run("mechanism="+mech+"/cli", func(b *testing.B) {
		cpu0, t0 := cpuSeconds(syscall.RUSAGE_CHILDREN), time.Now()
		for i := 0; i < b.N; i++ {
			in, err := os.Open(lines)
			if err != nil {
				b.Fatal(err)
			}
			out, err := os.Create(filepath.Join(dir, "cli-out.jsonl"))
			if err != nil {
				b.Fatal(err)
			}
			args := []string{"privatize", "-json", "-mechanism", mech}
			if *benchCLIth > 0 {
				args = append(args, "-threads", strconv.Itoa(*benchCLIth))
			}
			cmd := exec.Command(cli, args...)
			var stderr strings.Builder
			cmd.Stdin, cmd.Stdout, cmd.Stderr = in, out, &stderr
			if err := cmd.Run(); err != nil {
				b.Fatalf("%v: %s", err, stderr.String())
			}
			in.Close()
			out.Close()
		}
		report(b, time.Since(t0), cpuSeconds(syscall.RUSAGE_CHILDREN)-cpu0)
	})
}
