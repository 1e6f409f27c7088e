package memo

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

var testID = Identity{Mechanism: "brr", Params: "epsilon=0.4845", Asset: sha256.Sum256([]byte("test asset"))}

func secretOf(b byte) []byte { return bytes.Repeat([]byte{b}, MinSecretLen) }

// randDraw draws a uniformly random non-negative response, so that two
// independent draws for one word differ with probability 1 − 2^-31.
func randDraw(int32) (int32, error) {
	var b [4]byte
	rand.Read(b[:])
	return int32(binary.LittleEndian.Uint32(b[:]) >> 1), nil
}

func noCharge([]int32, []bool) error { return nil }

// freshCount is the number of fresh draws commit is told about.
func freshCount(memoized []bool) int {
	n := 0
	for _, m := range memoized {
		if !m {
			n++
		}
	}
	return n
}

func mustOpen(t testing.TB, dir string, id Identity, secret []byte) *Memo {
	t.Helper()
	m, err := Open(dir, id, secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func mustResolve(t testing.TB, m *Memo, words ...int32) []int32 {
	t.Helper()
	r, _, err := m.Resolve(words, randDraw, noCharge)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// memoFile returns the path of the only memo file in dir.
func memoFile(t testing.TB, dir string) string {
	t.Helper()
	ps, _ := filepath.Glob(filepath.Join(dir, filePrefix+"*"+fileSuffix))
	if len(ps) != 1 {
		t.Fatalf("want one memo file in %s, have %v", dir, ps)
	}
	return ps[0]
}

func appendBytes(t testing.TB, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// refuseDraw fails the test if a word has to be drawn: used to check that
// recorded responses are answered from the memo.
func refuseDraw(t testing.TB) func(int32) (int32, error) {
	return func(w int32) (int32, error) {
		t.Errorf("word %d drawn again: its recorded response was lost", w)
		return 0, os.ErrInvalid
	}
}
