package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// child starts the command with extra environment variables.
func child(args []string, env ...string) (*exec.Cmd, *strings.Builder) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "WORDVEIL_BEAM_MAIN=1"), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	return cmd, &stderr
}

// crashInput writes two overlapping inputs' files: users u-0 to u-9,
// 40 records in each file.
func crashInput(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{"a", "b"} {
		var b strings.Builder
		for i := range 40 {
			fmt.Fprintf(&b, "{\"user\":\"u-%d\",\"text\":\"the doctor said %s walk to the station\"}\n", i%10, name)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// committedState is what a state's committed generation is: its anchor,
// and the seal and shards the anchor's generation names.
func committedState(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	a, err := os.ReadFile(filepath.Join(dir, "key.anchor"))
	if err != nil {
		t.Fatal(err)
	}
	m["anchor"] = string(a)
	var an struct{ Generation int64 }
	json.Unmarshal(a, &an)
	files, _ := filepath.Glob(filepath.Join(dir, "state", fmt.Sprintf("*g%06d*", an.Generation)))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		m[filepath.Base(f)] = string(b)
	}
	return m
}

// released returns the (user, source, line) of every released record in
// the record files of dir, committed or not: what a careless consumer
// could read there.
func released(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	files, _ := filepath.Glob(filepath.Join(dir, "*records-*"))
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var r struct {
				User, Source, Status string
				Line                 int64
			}
			json.Unmarshal(sc.Bytes(), &r)
			if r.Status == "released" {
				out = append(out, fmt.Sprintf("%s %s:%d", r.User, r.Source, r.Line))
			}
		}
		fh.Close()
	}
	return out
}

// A run killed (SIGKILL: no cleanup) at each of 11 points before its
// commit leaves no manifest and the committed state as it was; the re-run
// (into another output directory, sharing the state) removes the crashed
// run's files, commits, and names each record once, and no record is
// released by both. Killed after its commit point, the run is committed:
// the next run finds the manifest and moves the anchor on.
func TestKilledRuns(t *testing.T) {
	base := t.TempDir()
	in := filepath.Join(base, "in")
	os.Mkdir(in, 0o755)
	crashInput(t, in)
	args := func(dir, out, glob string) []string {
		return []string{"-input", filepath.Join(in, glob), "-output", filepath.Join(dir, out), "-mechanism", "1dg",
			"-cap-words", "50", "-shards", "2", "-state", filepath.Join(dir, "state"), "-state-key", filepath.Join(dir, "key")}
	}
	ready := filepath.Join(base, "ready")
	if code, stderr := wvbeam(t, args(ready, "out-0", "a.jsonl")...); code != 0 {
		t.Fatalf("the first run: exit %d\n%s", code, stderr)
	}
	for _, point := range []string{"opened", "pending", "read", "state", "decided", "privatized", "written", "staged", "hashed", "sealed", "renamed", "committed"} {
		t.Run(point, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, ready, dir)
			before := committedState(t, dir)
			cmd, stderr := child(args(dir, "crashed", "*.jsonl"), "WORDVEIL_BEAM_CRASH_AT="+point)
			err := cmd.Run()
			if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the run was not killed at %s: %v\n%s", point, err, stderr)
			}
			_, merr := os.Stat(filepath.Join(dir, "crashed", "MANIFEST.json"))
			if point == "committed" {
				if merr != nil {
					t.Fatalf("killed after its commit point, the run has no manifest: %v", merr)
				}
			} else {
				if merr == nil {
					t.Fatal("a killed run left a manifest")
				}
				after := committedState(t, dir)
				for k, v := range before {
					if after[k] != v {
						t.Fatalf("the killed run changed the committed state's %s", k)
					}
				}
			}
			if code, stderr := wvbeam(t, args(dir, "rerun", "*.jsonl")...); code != 0 {
				t.Fatalf("the re-run: exit %d\n%s", code, stderr)
			}
			var m struct {
				Files []struct{ Name string }
				State struct{ Generation int64 }
			}
			b, err := os.ReadFile(filepath.Join(dir, "rerun", "MANIFEST.json"))
			if err != nil || json.Unmarshal(b, &m) != nil {
				t.Fatalf("the re-run's manifest: %v", err)
			}
			wantGen := int64(2)
			if point == "committed" {
				wantGen = 3
			}
			if m.State.Generation != wantGen {
				t.Errorf("the re-run committed generation %d, want %d", m.State.Generation, wantGen)
			}
			seen := map[string]int{}
			for _, r := range released(t, filepath.Join(dir, "rerun")) {
				seen[r]++
			}
			if point != "committed" {
				if left := released(t, filepath.Join(dir, "crashed")); len(left) > 0 {
					t.Errorf("the crashed run's %d records were left after the re-run", len(left))
				}
				for r, n := range seen {
					if n > 1 {
						t.Errorf("%s released %d times", r, n)
					}
				}
			}
			if len(seen) == 0 && point != "committed" {
				t.Error("the re-run released nothing")
			}
		})
	}
}

// SIGINT during the pipeline: the command says "interrupted; nothing
// committed", exits 130, and leaves no manifest, no staged file and the
// state as it was.
func TestInterrupted(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	crashInput(t, in)
	args := []string{"-input", filepath.Join(in, "*.jsonl"), "-output", filepath.Join(dir, "out"), "-cap-words", "25",
		"-state", filepath.Join(dir, "state"), "-state-key", filepath.Join(dir, "key")}
	cmd, stderr := child(args, "WORDVEIL_BEAM_STALL_AT=decided")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pendingFile := filepath.Join(dir, "state", "pending.json")
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(pendingFile); err == nil {
			break
		}
		if time.Since(start) > time.Minute {
			cmd.Process.Kill()
			t.Fatal("the run never started")
		}
	}
	before := committedState(t, dir)
	time.Sleep(2 * time.Second) // into the pipeline, stalled in the decision
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "interrupted; nothing committed") {
		t.Fatalf("exit %v, stderr:\n%s\nwant 130 and \"interrupted; nothing committed\"", err, stderr)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "out")); len(ents) > 0 {
		t.Errorf("the interrupted run left %d files in its output directory (%s)", len(ents), ents[0].Name())
	}
	if _, err := os.Stat(pendingFile); err == nil {
		t.Error("the interrupted run left its pending mark")
	}
	after := committedState(t, dir)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("the interrupted run changed the state's %s", k)
		}
	}
}

// copyTree copies the files under from to to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	filepath.Walk(from, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o600)
	})
}
