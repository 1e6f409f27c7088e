package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// portableTimeout bounds each run on the job server: a worker that cannot
// start leaves a Prism job "running" for ever, and the submitting command
// waiting on it.
const portableTimeout = 3 * time.Minute

// summary is the command's line of counters.
var summary = regexp.MustCompile(`\d+ records read \(\d+ malformed lines skipped\), (\d+) released, (\d+) withheld over a cap; \d+ words privatized; \d+ users, \d+ of them capped`)

// goBuild builds pkg (a package path, or "." for this command) into dir
// and returns the binary's path, or the build's error and output.
func goBuild(dir, name, pkg string) (string, error) {
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin, nil
}

// startPrism starts Prism's job server, built from the Beam module that
// beam/go.mod pins (its tool block), as a process of its own on a port the
// kernel picks, and returns its job endpoint. Its log (and its workers'
// output) goes to the file log. The server runs in a process group of its
// own, with the workers it starts: a worker outlives its job (boot is
// killed, the worker it started is not), so the test kills the whole group
// when it ends. Should the test die first, the server shuts itself down
// after two idle minutes.
func startPrism(t *testing.T, bin, log string) (string, error) {
	f, err := os.Create(log)
	if err != nil {
		return "", err
	}
	defer f.Close()
	cmd := exec.Command(bin, "--job_port=0", "--serve_http=false", "--log_kind=json", "--idle_shutdown_timeout=2m")
	cmd.Stdout, cmd.Stderr = f, f
	// boot writes pipeline_options.json into its working directory,
	// which is the server's.
	cmd.Dir = filepath.Dir(log)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	deadline := time.After(time.Minute)
	for {
		b, _ := os.ReadFile(log)
		for line := range strings.Lines(string(b)) {
			var l struct{ Msg, Endpoint string }
			if json.Unmarshal([]byte(line), &l) == nil && l.Msg == "Serving JobManagement" && l.Endpoint != "" {
				return l.Endpoint, nil
			}
		}
		select {
		case err := <-exited:
			exited <- err
			return "", fmt.Errorf("prism exited before serving: %v\n%s", err, b)
		case <-deadline:
			return "", fmt.Errorf("prism did not report its job endpoint within a minute\n%s", b)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// workerCommand writes the command Prism runs for each worker of a
// PROCESS environment: the Go SDK's container boot program, which fetches
// the staged worker binary from the job server and runs it, as a
// cluster's SDK container does. Prism passes the worker's id as
// --id='ID', quotes included (no shell removes them), and boot would
// present them to the job server, which then refuses the worker: the
// script removes them. Each start is appended to started, so the test can
// tell that workers ran in processes of their own.
func workerCommand(t *testing.T, dir, boot, started string) string {
	t.Helper()
	semi := filepath.Join(dir, "semi")
	if err := os.Mkdir(semi, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "boot-worker")
	body := fmt.Sprintf(`#!/bin/sh
id=${1#--id=}; id=${id#\'}; id=${id%%\'}
echo "$$ $id" >> %q
exec %q --id="$id" "$2" --semi_persist_dir=%q
`, started, boot, semi)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script
}

// portableInput writes three files of records from 40 users (deterministic
// text): enough for several shards, a cap that withholds, and users whose
// records span files.
func portableInput(t *testing.T, dir string) {
	t.Helper()
	words := strings.Fields("the doctor said we walk to the station after lunch and my sister will call you tomorrow about the new house near the river 42 times")
	r := rand.New(rand.NewPCG(37, 5))
	for f := range 3 {
		var b strings.Builder
		for i := range 200 {
			n := 3 + r.IntN(12)
			text := make([]string, n)
			for j := range text {
				text[j] = words[r.IntN(len(words))]
			}
			fmt.Fprintf(&b, "{\"user\":\"user-%d\",\"text\":%q}\n", (i*7+f)%40, strings.Join(text, " "))
		}
		// The last file gzip-compressed: a file that cannot seek, re-read
		// sequentially (by a DoFn of its own), in the workers too.
		name, data := fmt.Sprintf("part-%d.jsonl", f), []byte(b.String())
		if f == 2 {
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(data)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			name, data = name+".gz", z.Bytes()
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// workerCopies returns the worker binaries that boot copied to /tmp/bin*/
// (a fixed path in boot) and that are byte for byte bin: boot never
// removes them, and at 150 MB each the test does. Removing a copy another
// test's worker still runs does not stop that worker.
func workerCopies(t *testing.T, bin string) []string {
	want, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob("/tmp/bin*")
	var out []string
	for _, d := range dirs {
		if fi, err := os.Stat(filepath.Join(d, "worker")); err != nil || fi.Size() != int64(len(want)) {
			continue
		}
		if got, err := os.ReadFile(filepath.Join(d, "worker")); err == nil && bytes.Equal(got, want) {
			out = append(out, d)
		}
	}
	return out
}

// The pipeline runs the same through Beam's portable job API: submitted
// by the command (--runner=universal) to Prism's job server in a process
// of its own, with its workers in processes of their own (a PROCESS
// environment: Beam's container boot program, which runs the worker
// binary staged with the job: this command, built), its seeded output
// equals the in-process run's byte for byte: two successive runs sharing
// a state each, records and budgets. Only a job server that cannot be
// built or started skips it (saying why); make test-beam records the skip.
func TestPortableRunner(t *testing.T) {
	dir := t.TempDir()
	bins := filepath.Join(dir, "bin")
	os.Mkdir(bins, 0o755)
	prism, err := goBuild(bins, "prism", "github.com/apache/beam/sdks/v2/go/cmd/prism")
	if err != nil {
		t.Skipf("NOT RUN: Prism's job server could not be built from the module cache: %v", err)
	}
	boot, err := goBuild(bins, "boot", "github.com/apache/beam/sdks/v2/go/container")
	if err != nil {
		t.Skipf("NOT RUN: Beam's container boot program (the workers' launcher) could not be built from the module cache: %v", err)
	}
	wvb, err := goBuild(bins, "wordveil-beam", ".")
	if err != nil {
		t.Fatal(err)
	}
	prismLog := filepath.Join(dir, "prism.log")
	endpoint, err := startPrism(t, prism, prismLog)
	if err != nil {
		t.Skipf("NOT RUN: Prism's job server could not be started: %v", err)
	}
	t.Logf("Prism's job server at %s", endpoint)
	started := filepath.Join(dir, "workers-started")
	worker := workerCommand(t, dir, boot, started)
	before := map[string]bool{}
	for _, d := range workerCopies(t, wvb) {
		before[d] = true
	}
	t.Cleanup(func() {
		for _, d := range workerCopies(t, wvb) {
			if !before[d] {
				os.RemoveAll(d)
			}
		}
	})

	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	portableInput(t, in)
	portable := []string{"--runner=universal", "--endpoint=" + endpoint, "--environment_type=PROCESS",
		fmt.Sprintf(`--environment_config={"command":%q}`, worker), "--worker_binary=" + wvb}
	// run runs the command's binary with the pipeline's flags for the i-th
	// run into kind's directories, then extra (the runner's flags).
	// It returns the output directory and the command's summary line.
	run := func(kind string, i int, extra ...string) (string, string) {
		out := filepath.Join(dir, kind, fmt.Sprintf("out-%d", i))
		args := append([]string{"-input", filepath.Join(in, "part-*"), "-output", out, "-seed", "37", "-cap-words", "100",
			"-shards", "3", "-state", filepath.Join(dir, kind, "state"), "-state-key", filepath.Join(dir, kind, "key")}, extra...)
		ctx, cancel := context.WithTimeout(context.Background(), portableTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, wvb, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			log, _ := os.ReadFile(prismLog)
			t.Fatalf("%s run %d: %v (after %s)\n%s\nPrism's log:\n%s", kind, i, err, time.Since(start).Round(time.Millisecond), stderr.String(), log)
		}
		t.Logf("%s run %d: %s\n%s", kind, i, time.Since(start).Round(time.Millisecond), stderr.String())
		return out, summary.FindString(stderr.String())
	}
	for i := 1; i <= 2; i++ {
		wantDir, wantSum := run("in-process", i)
		gotDir, gotSum := run("portable", i, portable...)
		want, got := dirFiles(t, wantDir), dirFiles(t, gotDir)
		if len(want) == 0 {
			t.Fatalf("run %d: no output files", i)
		}
		for name, b := range want {
			if !bytes.Equal(b, got[name]) {
				t.Errorf("run %d: %s differs between the in-process and the portable runs", i, name)
			}
		}
		if len(got) != len(want) {
			t.Errorf("run %d: %d files on the job server, %d in process", i, len(got), len(want))
		}
		// The counters come back from the workers through the job server.
		if gotSum != wantSum {
			t.Errorf("run %d: the portable run says %q, the in-process run %q", i, gotSum, wantSum)
		}
		// The comparison cannot pass on empty or all-released output: the
		// cap withholds in both runs, and the second, sharing the state,
		// releases less.
		m := summary.FindStringSubmatch(wantSum)
		if m == nil {
			t.Fatalf("run %d: no summary line", i)
		}
		rel, _ := strconv.Atoi(m[1])
		with, _ := strconv.Atoi(m[2])
		if rel == 0 || with == 0 {
			t.Errorf("run %d: %d released, %d withheld: the comparison is vacuous", i, rel, with)
		}
	}
	b, _ := os.ReadFile(started)
	if n := len(strings.Fields(string(b))) / 2; n == 0 {
		t.Errorf("no worker process was started by the job server: the runs did not use the PROCESS environment")
	} else {
		t.Logf("%d worker processes started by the job server", n)
	}
}

// dirFiles returns the committed files of a run's output directory by
// name: those its MANIFEST.json names (which must exist), the manifest
// itself left out (it names the run).
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
	if err != nil {
		t.Fatal(err)
	}
	var man struct{ Files []struct{ Name string } }
	if err := json.Unmarshal(m, &man); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range man.Files {
		b, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}
