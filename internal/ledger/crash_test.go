package ledger

import (
	"bufio"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// child runs this test binary as a child process in mode, on dir.
func child(t *testing.T, dir, mode string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "WV_LEDGER_CHILD="+dir, "WV_LEDGER_MODE="+mode)
	cmd.Stderr = os.Stderr
	return cmd
}

// TestCrashSafety SIGKILLs a process that is charging, at random moments,
// and checks that the ledger always opens and holds at least every charge
// the child acknowledged (it prints a line once Charge returns), and at
// most one more (appended and synced, killed before it printed). In the
// "compact" mode the child compacts after almost every charge, and the
// test asserts that at least one kill landed inside a compaction (it left
// the compaction's temporary file), adding rounds (up to 256) until one
// does: about one kill in five does, so 256 rounds without one is a real
// failure, not bad luck. The kill delays come from a seed taken from the clock, logged, and
// set with WV_CRASH_SEED=<seed> to replay a failing run's delays.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("WV_CRASH_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("WV_CRASH_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d (replay with WV_CRASH_SEED=%d)", seed, seed)
	for _, mode := range []string{"append", "compact"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			r := rand.New(rand.NewPCG(seed, 7))
			before := 0.0
			killedMidCompaction, rounds := 0, 0
			for round := 0; round < 16 || mode == "compact" && killedMidCompaction == 0 && round < 256; round++ {
				rounds++
				cmd := child(t, dir, mode)
				out, _ := cmd.StdoutPipe()
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				sc := bufio.NewScanner(out)
				if !sc.Scan() || sc.Text() != "ready" {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("round %d: child did not start: %q", round, sc.Text())
				}
				delay := time.Duration(2+r.IntN(60)) * time.Millisecond
				killer := time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
				acked := 0.0
				for sc.Scan() {
					a, err := strconv.ParseFloat(sc.Text(), 64)
					if err != nil {
						t.Fatalf("round %d: child said %q", round, sc.Text())
					}
					acked += a
				}
				killer.Stop()
				cmd.Process.Signal(syscall.SIGKILL)
				cmd.Wait()
				// Open removes a killed compaction's temporary file: count it first.
				if orphans, _ := filepath.Glob(filepath.Join(dir, "."+FileName+".*")); len(orphans) > 0 {
					killedMidCompaction++
				}
				l, err := Open(dir, Caps{})
				if err != nil {
					t.Fatalf("round %d: ledger unreadable after a kill: %v", round, err)
				}
				_, life, _ := l.Spent()
				if life < before+acked || life > before+acked+1 {
					t.Fatalf("round %d: lifetime %v; before the round %v, acknowledged %v (want ≥ %v, ≤ one charge more)",
						round, life, before, acked, before+acked)
				}
				before = life
			}
			t.Logf("%s: %d kills, lifetime %v, %d kills left a compaction's temporary file", mode, rounds, before, killedMidCompaction)
			if mode == "compact" && killedMidCompaction == 0 {
				t.Errorf("compact: none of %d kills landed inside a compaction (seed %d): the crash path of compaction was not exercised", rounds, seed)
			}
		})
	}
}

// TestChild is the child process of TestCrashSafety and
// TestProcessesShareACap; it does nothing in a normal run.
func TestChild(t *testing.T) {
	dir := os.Getenv("WV_LEDGER_CHILD")
	if dir == "" {
		t.Skip("child process of TestCrashSafety and TestProcessesShareACap")
	}
	switch mode := os.Getenv("WV_LEDGER_MODE"); mode {
	case "append", "compact":
		caps := Caps{}
		if mode == "compact" {
			caps = Caps{PerPeriod: 1e9, Period: time.Hour}
		}
		l, err := Open(dir, caps)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		if mode == "compact" {
			// Every charge is an hour after the last, so none stays live
			// and with no slack every other charge compacts.
			l.slack = 1
			clock := time.Unix(0, max(l.st.clock, time.Now().UnixNano()))
			l.now = func() time.Time { clock = clock.Add(time.Hour); return clock }
		}
		fmt.Println("ready")
		for {
			if _, err := l.Charge(1); err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			fmt.Println(1)
		}
	case "lockgone":
		// Charges of 1 until the cap, compacting every other record (so
		// the file is renamed over under the others' locks), with a file
		// anchor shared by the processes.
		l, err := OpenWith(dir, Caps{Lifetime: lockGoneCap}, Options{Anchor: fileAnchor(os.Getenv("WV_LEDGER_ANCHOR"))})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		l.slack = 1
		granted := 0
		for {
			_, err := l.Charge(1)
			if errors.Is(err, ErrBudgetExceeded) {
				break
			}
			if err != nil {
				fmt.Println("error", err)
				os.Exit(1)
			}
			granted++
		}
		fmt.Println(granted)
	case "cap":
		l, err := Open(dir, Caps{Lifetime: sharedCap})
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println(chargeConcurrently(l, 4))
	default:
		t.Fatalf("unknown mode %q", mode)
	}
}

const sharedCap = 300

// chargeConcurrently charges 1, 2, 3, 1, 2, 3, … from g goroutines, 40
// attempts each, and returns the sum of the granted amounts, or an error
// text.
func chargeConcurrently(l *Ledger, g int) string {
	var mu sync.Mutex
	var wg sync.WaitGroup
	granted, failed := 0, ""
	for range g {
		wg.Go(func() {
			for i := range 40 {
				a := 1 + i%3
				_, err := l.Charge(float64(a))
				mu.Lock()
				switch {
				case err == nil:
					granted += a
				case !strings.Contains(err.Error(), "budget exceeded"):
					failed = err.Error()
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if failed != "" {
		return "error " + failed
	}
	return strconv.Itoa(granted)
}

// TestProcessesShareACap: four processes of four goroutines each, and four
// goroutines here, charge one directory under a lifetime cap: the ledger's
// total is exactly the sum of the granted charges, never above the cap,
// and the cap is used up (less than the largest charge left).
func TestProcessesShareACap(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	l, err := Open(dir, Caps{Lifetime: sharedCap})
	if err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for range 4 {
		cmd := child(t, dir, "cap")
		var b strings.Builder
		cmd.Stdout = &b
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &b)
	}
	here := chargeConcurrently(l, 4)
	total := 0
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v: %s", i, err, outs[i])
		}
		lines := append(strings.Fields(outs[i].String()), "")
		n, err := strconv.Atoi(lines[0])
		if err != nil {
			t.Fatalf("child %d said %q", i, outs[i])
		}
		total += n
	}
	n, err := strconv.Atoi(here)
	if err != nil {
		t.Fatal(here)
	}
	total += n
	_, life, err := l.Spent()
	if err != nil || life != float64(total) || life > sharedCap || life <= sharedCap-3 {
		t.Fatalf("ledger %v (%v), granted %d, cap %d", life, err, total, sharedCap)
	}
	t.Logf("granted %d of cap %d across 5 processes (%d here)", total, sharedCap, n)
}
