package core

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wordveil/wordveil/internal/ledger"
)

// The child process of TestKilledMidAppend: it privatizes texts of fresh
// words through a memo and a ledger with the default anchor, printing one
// line per call that returned (what the caller may release), until it is
// killed.
const killChildEnv = "WORDVEIL_KILL_CHILD"

func killChild() {
	secret, _ := hex.DecodeString(os.Getenv("WORDVEIL_KILL_SECRET"))
	start, _ := strconv.Atoi(os.Getenv("WORDVEIL_KILL_START"))
	p, err := Open(Config{Mechanism: OneDG, Level: Strong, LedgerDir: os.Getenv("WORDVEIL_KILL_LEDGER"),
		MemoDir: os.Getenv("WORDVEIL_KILL_MEMO"), MemoSecret: secret})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	words := killWords(p)
	for i := start; ; i += 3 {
		text := strings.Join(words[i%len(words):i%len(words)+3], " ")
		r, err := p.Privatize(text)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		// One write per line: a kill leaves whole lines and at most one
		// part of one, which the parent drops.
		fmt.Printf("%s\t%s\t%v\n", text, r.Text, r.Accounting.Ledger.LifetimeSpent)
	}
}

// killWords are the asset's plain lower-case words (every one in the
// vocabulary, so each is memoized).
func killWords(p *Privatizer) []string {
	plain := regexp.MustCompile(`^[a-z]{3,}$`)
	var out []string
	for id := range p.asset.Len() {
		if w := p.asset.Word(id); plain.MatchString(w) {
			out = append(out, w)
		}
	}
	return out[:len(out)-3]
}

// TestKilledMidAppend: a child process privatizing through a memo and a
// ledger with the default anchor is killed (SIGKILL) at a random moment,
// 50 times (10 with -short). After each kill, reopening never fails, never
// loses a charge or a response the child acknowledged (the ledger's total
// is at least the last acknowledged, each acknowledged text privatizes to
// the same output, wholly memoized), and never accepts a forged tail: a
// whole record of random bytes appended to the memo or the ledger fails
// closed, and a part of one (what a torn append leaves) is dropped.
func TestKilledMidAppend(t *testing.T) {
	rounds := 50
	if testing.Short() {
		rounds = 10
	}
	root := t.TempDir()
	secret := make([]byte, 32)
	rand.Read(secret)
	cfg := Config{Mechanism: OneDG, Level: Strong, LedgerDir: filepath.Join(root, "ledger"),
		MemoDir: filepath.Join(root, "memo"), MemoSecret: secret}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	torn, acked := 0, 0
	for round := range rounds {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), killChildEnv+"=1", "WORDVEIL_KILL_SECRET="+hex.EncodeToString(secret),
			"WORDVEIL_KILL_LEDGER="+cfg.LedgerDir, "WORDVEIL_KILL_MEMO="+cfg.MemoDir,
			"WORDVEIL_KILL_START="+strconv.Itoa(round*300))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1<<16)
		go func() {
			r := bufio.NewReader(out)
			for {
				l, err := r.ReadString('\n')
				if err != nil { // a part of a line (the kill) or EOF: not acknowledged
					close(lines)
					return
				}
				lines <- l
			}
		}()
		// Let it start and answer at least once, then kill it anywhere.
		first, ok := <-lines
		if !ok {
			cmd.Wait()
			t.Fatalf("round %d: the child answered nothing: %s", round, stderr.String())
		}
		time.Sleep(time.Duration(mrand.IntN(40000)) * time.Microsecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		got := []string{first}
		for l := range lines {
			got = append(got, l)
		}
		acked += len(got)
		if m, _ := filepath.Glob(filepath.Join(cfg.MemoDir, "memo-*.wvm")); len(m) == 1 {
			if st, err := os.Stat(m[0]); err == nil && (st.Size()-120)%60 != 0 {
				torn++
			}
		}

		p, err := Open(cfg)
		if err != nil {
			t.Fatalf("round %d: reopening after the kill: %v", round, err)
		}
		var last float64
		fmt.Sscan(strings.Split(strings.TrimSpace(got[len(got)-1]), "\t")[2], &last)
		for i, l := range got {
			f := strings.Split(strings.TrimSuffix(l, "\n"), "\t")
			r, err := p.Privatize(f[0])
			if err != nil {
				t.Fatalf("round %d: %q: %v", round, f[0], err)
			}
			if r.Text != f[1] || r.Accounting.Memoized != r.Accounting.Words {
				t.Fatalf("round %d: %q was answered %q before the kill, %q after (%d of %d memoized): a response lost", round, f[0], f[1], r.Text, r.Accounting.Memoized, r.Accounting.Words)
			}
			if i == 0 && r.Accounting.Ledger.LifetimeSpent < last {
				t.Fatalf("round %d: the ledger holds %v, %v was acknowledged: a charge lost", round, r.Accounting.Ledger.LifetimeSpent, last)
			}
		}
		p.Close()
		forgedTails(t, round, cfg)
	}
	t.Logf("%d rounds killed mid-append: %d responses acknowledged, none lost; %d kills left a torn memo record; forged tails refused or dropped every round", rounds, acked, torn)
}

// forgedTails appends random bytes to the memo and the ledger files: a
// whole record's worth fails closed, less than a record is dropped (the
// file is back at its size).
func forgedTails(t *testing.T, round int, cfg Config) {
	t.Helper()
	memos, _ := filepath.Glob(filepath.Join(cfg.MemoDir, "memo-*.wvm"))
	if len(memos) != 1 {
		t.Fatalf("memo files %v", memos)
	}
	for _, f := range []struct {
		path          string
		record, short int
	}{
		{memos[0], 60, 1 + mrand.IntN(59)},
		{filepath.Join(cfg.LedgerDir, ledger.FileName), 32, 1 + mrand.IntN(31)},
	} {
		st, err := os.Stat(f.path)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{f.record, f.short} {
			junk := make([]byte, n)
			rand.Read(junk)
			junk[0] |= 1 // never all zeros (a ledger's zeros are a torn append)
			appendFile(t, f.path, junk)
			err := openOnce(cfg)
			switch {
			case n == f.record && !errors.Is(err, ErrCorruptState):
				t.Fatalf("round %d: %d forged bytes after %s: %v, want ErrCorruptState", round, n, filepath.Base(f.path), err)
			case n < f.record && err != nil:
				t.Fatalf("round %d: %d bytes after %s: %v, want them dropped", round, n, filepath.Base(f.path), err)
			}
			if err := os.Truncate(f.path, st.Size()); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func appendFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(f, strings.NewReader(string(b))); err != nil {
		t.Fatal(err)
	}
}
