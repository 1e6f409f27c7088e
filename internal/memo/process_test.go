//go:build unix

package memo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The children of these tests are this test binary, re-run with
// -test.run=^TestChildProcess$ and the environment below.
const (
	envDir    = "WV_MEMO_CHILD_DIR"
	envMode   = "WV_MEMO_CHILD_MODE"   // "race" or "crash"
	envBase   = "WV_MEMO_CHILD_BASE"   // first word id (crash mode)
	envAnchor = "WV_MEMO_CHILD_ANCHOR" // if set, a directory for a file anchor
)

// fileAnchor is an Anchor over files in a directory, shared by processes.
type fileAnchor string

func (a fileAnchor) Load(name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(string(a), name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

func (a fileAnchor) Store(name string, b []byte) error {
	tmp := filepath.Join(string(a), name+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(string(a), name))
}

func startChild(t *testing.T, dir, mode string, base int) (*exec.Cmd, io.WriteCloser, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildProcess$")
	cmd.Env = append(os.Environ(), envDir+"="+dir, envMode+"="+mode, envBase+"="+strconv.Itoa(base))
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, in, bufio.NewScanner(out)
}

// parseReleased parses a child's "word response" line.
func parseReleased(line string) (w, r int32, ok bool) {
	f := strings.Fields(line)
	if len(f) != 2 {
		return 0, 0, false
	}
	a, err1 := strconv.ParseInt(f[0], 10, 32)
	b, err2 := strconv.ParseInt(f[1], 10, 32)
	return int32(a), int32(b), err1 == nil && err2 == nil
}

// TestProcessesOneResponse: 4 processes × 500 trials on the same directory
// and the same new words release exactly one response per word.
func TestProcessesOneResponse(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	const procs, trials, perTrial = 4, 500, 4
	dir := t.TempDir()
	type child struct {
		cmd *exec.Cmd
		in  io.WriteCloser
		out *bufio.Scanner
	}
	var cs []child
	for range procs {
		cmd, in, out := startChild(t, dir, "race", 0)
		if !out.Scan() || out.Text() != "ready" {
			t.Fatalf("child did not start: %q", out.Text())
		}
		cs = append(cs, child{cmd, in, out})
	}
	for _, c := range cs { // all at once, so that they race on the same words
		io.WriteString(c.in, "go\n")
	}
	released := make([]map[int32]int32, procs)
	done := make(chan int)
	for i, c := range cs {
		released[i] = map[int32]int32{}
		go func() {
			for c.out.Scan() {
				if w, r, ok := parseReleased(c.out.Text()); ok {
					released[i][w] = r
				}
			}
			done <- i
		}()
	}
	for range cs {
		i := <-done
		if err := cs[i].cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v", i, err)
		}
	}
	conflicts := 0
	for w := range int32(trials * perTrial) {
		for i := range procs {
			r, ok := released[i][w]
			if !ok {
				t.Fatalf("child %d did not release word %d", i, w)
			}
			if r != released[0][w] {
				conflicts++
				break
			}
		}
	}
	if conflicts != 0 {
		t.Fatalf("%d of %d words released with two responses across processes", conflicts, trials*perTrial)
	}
	m := mustOpen(t, dir, testID, secretOf(1))
	for w, want := range released[0] {
		if r, _, err := m.Resolve([]int32{w}, refuseDraw(t), noCharge); err != nil || r[0] != want {
			t.Fatalf("word %d: recorded %v %v, released %d", w, r, err, want)
		}
	}
	t.Logf("%d processes × %d trials × %d words: 0 conflicts", procs, trials, perTrial)
}

// TestKillNeverTwoResponses kills a child that resolves in a loop at random
// moments; every response it released (printed after Resolve returned) is
// the recorded one, and the memo always opens.
func TestKillNeverTwoResponses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	released := map[int32]int32{}
	for round := range 10 {
		cmd, _, out := startChild(t, dir, "crash", round*1_000_000)
		deadline := time.After(time.Duration(10+rand.IntN(150)) * time.Millisecond)
		lines := make(chan string)
		go func() {
			for out.Scan() {
				lines <- out.Text()
			}
			close(lines)
		}()
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break read
				}
				if w, r, ok := parseReleased(l); ok {
					if old, seen := released[w]; seen && old != r {
						t.Fatalf("round %d: word %d released as %d and %d", round, w, old, r)
					}
					released[w] = r
				}
			case <-deadline:
				break read
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		for range lines { // drain what was printed before the kill
		}
		cmd.Wait()
		m, err := Open(dir, testID, secretOf(1))
		if err != nil {
			t.Fatalf("round %d: memo does not open after a kill: %v", round, err)
		}
		for w, want := range released {
			if r, _, err := m.Resolve([]int32{w}, refuseDraw(t), noCharge); err != nil || r[0] != want {
				t.Fatalf("round %d: word %d recorded %v (%v), released %d", round, w, r, err, want)
			}
		}
		n, _ := m.Len()
		m.Close()
		t.Logf("round %d: %d words released so far, %d recorded", round, len(released), n)
	}
	if len(released) == 0 {
		t.Fatal("no child released anything: the test checked nothing")
	}
}

// TestChildProcess is the child of the tests above.
func TestChildProcess(t *testing.T) {
	dir := os.Getenv(envDir)
	if dir == "" {
		t.Skip("child process of TestProcessesOneResponse and TestKillNeverTwoResponses")
	}
	var opt Options
	if a := os.Getenv(envAnchor); a != "" {
		opt.Anchor = fileAnchor(a)
	}
	m, err := OpenWith(dir, testID, secretOf(1), opt)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	out := bufio.NewWriter(os.Stdout)
	release := func(words, r []int32) {
		for i, w := range words {
			fmt.Fprintln(out, w, r[i])
		}
		out.Flush()
	}
	switch os.Getenv(envMode) {
	case "race":
		fmt.Println("ready")
		bufio.NewReader(os.Stdin).ReadString('\n')
		for trial := range int32(500) {
			words := []int32{trial * 4, trial*4 + 1, trial*4 + 2, trial*4 + 3}
			r, _, err := m.Resolve(words, randDraw, noCharge)
			if err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			release(words, r)
		}
		os.Exit(0)
	case "crash":
		base, _ := strconv.Atoi(os.Getenv(envBase))
		for i := int32(0); ; i++ {
			// Three new words and one repeat of an older one.
			w0 := int32(base) + 3*i
			words := []int32{w0, w0 + 1, w0 + 2, int32(base) + i}
			r, _, err := m.Resolve(words, randDraw, noCharge)
			if err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			release(words, r)
		}
	}
	err = errors.New("unknown child mode")
	fmt.Println("error", err)
	os.Exit(1)
}
