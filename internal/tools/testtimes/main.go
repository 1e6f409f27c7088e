// Command testtimes reads `go test -json` output on standard input and prints
// the slowest top-level tests, slowest first, with their package and wall
// time. `make test-times` runs it over both modules under -race -short, the
// configuration whose 60-second budget per test the Makefile states.
//
//	go test -race -short -json ./... | go run ./internal/tools/testtimes [-n 10] [-max 60s]
//
// With -max, it exits 1 when a test took longer, after printing the table.
// Subtests are not listed on their own: their time is part of their parent's.
// It guarantees nothing about a test that never finished (a timeout or a
// crash); go test reports those itself, and testtimes passes its exit status
// through only for lines it can parse.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// event is the part of test2json's TestEvent that testtimes reads.
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64 // seconds
}

// result is one finished top-level test.
type result struct {
	Package, Test, Action string
	Elapsed               time.Duration
}

func main() {
	n := flag.Int("n", 10, "how many tests to list")
	max := flag.Duration("max", 0, "exit 1 if a test took longer than this (0: no limit)")
	flag.Parse()
	results, err := read(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
		os.Exit(2)
	}
	over := report(os.Stdout, results, *n, *max)
	if over > 0 {
		fmt.Fprintf(os.Stderr, "testtimes: %d test(s) over %v\n", over, *max)
		os.Exit(1)
	}
}

// read collects the finished top-level tests. Lines that are not JSON (a
// build failure's text) are skipped: go test reports those itself.
func read(r io.Reader) ([]result, error) {
	var out []result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e event
		if json.Unmarshal(line, &e) != nil {
			continue
		}
		if e.Test == "" || strings.Contains(e.Test, "/") {
			continue
		}
		switch e.Action {
		case "pass", "fail", "skip":
			out = append(out, result{e.Package, e.Test, e.Action, time.Duration(e.Elapsed * float64(time.Second))})
		}
	}
	return out, sc.Err()
}

// report prints the n slowest results and returns how many took longer than
// max (all of them counted, not only the n printed).
func report(w io.Writer, results []result, n int, max time.Duration) (over int) {
	sort.SliceStable(results, func(i, j int) bool { return results[i].Elapsed > results[j].Elapsed })
	for _, r := range results {
		if max > 0 && r.Elapsed > max {
			over++
		}
	}
	if n > len(results) {
		n = len(results)
	}
	fmt.Fprintf(w, "%d top-level tests; the %d slowest:\n", len(results), n)
	for _, r := range results[:n] {
		fmt.Fprintf(w, "%8.1fs  %-4s  %s %s\n", r.Elapsed.Seconds(), r.Action, r.Package, r.Test)
	}
	return over
}
