package memo

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestResolveMemoizes(t *testing.T) {
	for _, dir := range []string{"", "file"} {
		t.Run(map[string]string{"": "memory", "file": "file"}[dir], func(t *testing.T) {
			if dir != "" {
				dir = t.TempDir()
			}
			m := mustOpen(t, dir, testID, secretOf(1))
			draws := map[int32]int{}
			draw := func(w int32) (int32, error) { draws[w]++; return w + 100, nil }
			var charged []int
			charge := func(_ []int32, memoized []bool) error { charged = append(charged, freshCount(memoized)); return nil }
			tests := []struct {
				words    []int32
				want     []int32
				memoized []bool
			}{
				{[]int32{1, 2, 1}, []int32{101, 102, 101}, []bool{false, false, true}},
				{[]int32{2, 3, 3, 1}, []int32{102, 103, 103, 101}, []bool{true, false, true, true}},
				{nil, []int32{}, []bool{}},
			}
			for _, tc := range tests {
				r, memo, err := m.Resolve(tc.words, draw, charge)
				if err != nil || !slices.Equal(r, tc.want) || !slices.Equal(memo, tc.memoized) {
					t.Fatalf("Resolve(%v) = %v %v %v, want %v %v", tc.words, r, memo, err, tc.want, tc.memoized)
				}
			}
			if !slices.Equal(charged, []int{2, 1, 0}) {
				t.Fatalf("commit got %v, want [2 1 0]", charged)
			}
			for w, n := range draws {
				if n != 1 {
					t.Fatalf("word %d drawn %d times", w, n)
				}
			}
			if n, err := m.Len(); n != 3 || err != nil {
				t.Fatalf("Len = %d, %v", n, err)
			}
			if dir == "" {
				if m.FileID() != "" {
					t.Fatal("memory memo has a file id")
				}
				return
			}
			// A reopened memo answers from the file.
			if len(m.FileID()) != 2*fileIDLen {
				t.Fatalf("FileID %q", m.FileID())
			}
			m2 := mustOpen(t, dir, testID, secretOf(1))
			r, memo, err := m2.Resolve([]int32{3, 1, 2}, refuseDraw(t), noCharge)
			if err != nil || !slices.Equal(r, []int32{103, 101, 102}) || slices.Contains(memo, false) || m2.FileID() != m.FileID() {
				t.Fatalf("reopened: %v %v %v", r, memo, err)
			}
		})
	}
}

func TestInvalid(t *testing.T) {
	dir := t.TempDir()
	m := mustOpen(t, dir, testID, secretOf(1))
	closed := mustOpen(t, "", testID, nil)
	closed.Close()
	var zero Memo
	var nilMemo *Memo
	tests := []struct {
		name string
		m    *Memo
		w    []int32
		draw func(int32) (int32, error)
		comm func([]int32, []bool) error
	}{
		{"nil memo", nilMemo, []int32{1}, randDraw, noCharge},
		{"zero memo", &zero, []int32{1}, randDraw, noCharge},
		{"closed", closed, []int32{1}, randDraw, noCharge},
		{"negative word", m, []int32{1, -1}, randDraw, noCharge},
		{"nil draw", m, []int32{1}, nil, noCharge},
		{"nil commit", m, []int32{1}, randDraw, nil},
		{"negative response", m, []int32{1}, func(int32) (int32, error) { return -5, nil }, noCharge},
	}
	for _, tc := range tests {
		if _, _, err := tc.m.Resolve(tc.w, tc.draw, tc.comm); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", tc.name, err)
		}
	}
	if n, _ := m.Len(); n != 0 {
		t.Fatalf("invalid calls recorded %d words", n)
	}
	if _, err := nilMemo.Len(); !errors.Is(err, ErrInvalid) {
		t.Error("nil Len:", err)
	}
	if _, err := zero.Len(); !errors.Is(err, ErrInvalid) {
		t.Error("zero Len:", err)
	}
	if nilMemo.FileID() != "" || zero.FileID() != "" || nilMemo.Close() == nil || zero.Close() == nil {
		t.Error("nil or zero FileID/Close")
	}
	opens := []struct {
		name   string
		id     Identity
		secret []byte
		want   error
	}{
		{"no mechanism", Identity{Asset: testID.Asset}, secretOf(1), ErrInvalid},
		{"no asset", Identity{Mechanism: "brr"}, secretOf(1), ErrInvalid},
		{"bad utf8", Identity{Mechanism: "\xff", Asset: testID.Asset}, secretOf(1), ErrInvalid},
		{"long params", Identity{Mechanism: "brr", Params: strings.Repeat("x", maxIdentityField+1), Asset: testID.Asset}, secretOf(1), ErrInvalid},
		{"nil secret", testID, nil, ErrSecret},
		{"short secret", testID, make([]byte, MinSecretLen-1), ErrSecret},
	}
	for _, tc := range opens {
		if _, err := Open(t.TempDir(), tc.id, tc.secret); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestErrorPrefixOnce: every error says "memo: " exactly once.
func TestErrorPrefixOnce(t *testing.T) {
	dir := t.TempDir()
	mustResolve(t, mustOpen(t, dir, testID, secretOf(1)), 1, 2)
	var errs []error
	_, err := Open(dir, testID, secretOf(2))
	errs = append(errs, err)
	_, err = Open(dir, testID, nil)
	errs = append(errs, err)
	_, _, err = (*Memo)(nil).Resolve(nil, randDraw, noCharge)
	errs = append(errs, err)
	os.WriteFile(memoFile(t, dir), []byte("short"), 0o600)
	_, err = Open(dir, testID, secretOf(1))
	errs = append(errs, err)
	_, err = Open(t.TempDir(), Identity{}, secretOf(1))
	errs = append(errs, err)
	for _, err := range errs {
		if err == nil || strings.Count(err.Error(), "memo:") != 1 {
			t.Errorf("error %q: want the prefix once", err)
		}
		// A specific text replaces the generic one, and no noun repeats
		// the prefix ("memo: memo file ...").
		if err != nil && (strings.Contains(err.Error(), ErrInvalid.Error()) || strings.Contains(err.Error(), "memo: memo")) {
			t.Errorf("error %q: repeats generic text", err)
		}
	}
}

func TestCommitOrDrawErrorRecordsNothing(t *testing.T) {
	dir := t.TempDir()
	m := mustOpen(t, dir, testID, secretOf(1))
	mustResolve(t, m, 1)
	boom := errors.New("ledger: privacy budget exceeded")
	_, _, err := m.Resolve([]int32{1, 2, 3}, randDraw, func([]int32, []bool) error { return boom })
	if err != boom {
		t.Fatalf("commit error: got %v, want it unchanged", err)
	}
	_, _, err = m.Resolve([]int32{4, 5}, func(w int32) (int32, error) {
		if w == 5 {
			return 0, boom
		}
		return 9, nil
	}, noCharge)
	if err != boom {
		t.Fatalf("draw error: got %v", err)
	}
	// Nothing was recorded: a fresh Memo on the file draws 2, 3, 4, 5 again.
	m2 := mustOpen(t, dir, testID, secretOf(1))
	var drawn []int32
	_, memo, err := m2.Resolve([]int32{1, 2, 3, 4, 5}, func(w int32) (int32, error) { drawn = append(drawn, w); return 7, nil }, noCharge)
	if err != nil || !slices.Equal(drawn, []int32{2, 3, 4, 5}) || !slices.Equal(memo, []bool{true, false, false, false, false}) {
		t.Fatalf("after failed calls: drawn %v memoized %v %v", drawn, memo, err)
	}
	if st, _ := os.Stat(memoFile(t, dir)); st.Size() != headerLen+5*recordLen {
		t.Fatalf("file size %d, want header + 5 records", st.Size())
	}
}

func TestWrongSecret(t *testing.T) {
	dir := t.TempDir()
	mustResolve(t, mustOpen(t, dir, testID, secretOf(1)), 1)
	for _, id := range []Identity{testID, {Mechanism: "other", Asset: testID.Asset}} {
		if _, err := Open(dir, id, secretOf(2)); !errors.Is(err, ErrWrongSecret) {
			t.Fatalf("wrong secret: %v", err)
		}
	}
}

// TestOtherIdentity: another identity in the same directory gets its own
// file and its own responses; the first memo is untouched.
func TestOtherIdentity(t *testing.T) {
	dir := t.TempDir()
	a := mustOpen(t, dir, testID, secretOf(1))
	ra := mustResolve(t, a, 1, 2, 3)
	for _, id := range []Identity{
		{Mechanism: "brr", Params: "epsilon=0.5", Asset: testID.Asset},
		{Mechanism: "brr", Params: testID.Params, Asset: [32]byte{1}},
		{Mechanism: "brrx", Params: testID.Params, Asset: testID.Asset},
		{Mechanism: "br", Params: "repsilon=0.4845", Asset: testID.Asset}, // same concatenation
	} {
		b := mustOpen(t, dir, id, secretOf(1))
		if n, err := b.Len(); n != 0 || err != nil || b.FileID() == a.FileID() {
			t.Fatalf("%v: shares the memo (%d, %v)", id, n, err)
		}
		mustResolve(t, b, 1, 2, 3)
	}
	a2 := mustOpen(t, dir, testID, secretOf(1))
	if r, _, err := a2.Resolve([]int32{1, 2, 3}, refuseDraw(t), noCharge); err != nil || !slices.Equal(r, ra) {
		t.Fatalf("first identity: %v %v, want %v", r, err, ra)
	}
}

func TestCorruptFailsClosed(t *testing.T) {
	// live: an open Memo notices too. It reads only what is appended, so
	// it keeps its already-authenticated copy of records damaged in place
	// (and of a renamed file, whose records it still holds open).
	tests := []struct {
		name   string
		damage func(t *testing.T, path string)
		live   bool
	}{
		{"middle record flipped", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			b[headerLen+recordLen+tagLen+nonceLen] ^= 1
			os.WriteFile(p, b, 0o600)
		}, false},
		{"middle record tag changed", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			b[headerLen+recordLen] ^= 0x80
			os.WriteFile(p, b, 0o600)
		}, false},
		{"records swapped", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			r1 := headerLen + recordLen
			tmp := slices.Clone(b[r1+tagLen : r1+recordLen])
			copy(b[r1+tagLen:], b[r1+recordLen+tagLen:r1+2*recordLen])
			copy(b[r1+recordLen+tagLen:], tmp)
			os.WriteFile(p, b, 0o600)
		}, false},
		{"duplicate record", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			appendBytes(t, p, b[headerLen:headerLen+recordLen])
		}, true},
		{"truncated header", func(t *testing.T, p string) { os.Truncate(p, headerLen-1) }, true},
		{"empty file", func(t *testing.T, p string) { os.Truncate(p, 0) }, true},
		{"bad magic", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			b[7] = 3
			os.WriteFile(p, b, 0o600)
		}, false},
		{"renamed", func(t *testing.T, p string) {
			os.Rename(p, filepath.Join(filepath.Dir(p), filePrefix+strings.Repeat("0", 32)+fileSuffix))
		}, false},
		{"too many entries", func(t *testing.T, p string) { os.Truncate(p, headerLen+(MaxEntries+1)*recordLen) }, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			m := mustOpen(t, dir, testID, secretOf(1))
			mustResolve(t, m, 1, 2, 3)
			tc.damage(t, memoFile(t, dir))
			if _, err := Open(dir, testID, secretOf(1)); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Open: got %v, want ErrCorrupt", err)
			}
			if !tc.live {
				return
			}
			// The open Memo notices too, and stays closed (fail closed).
			for range 2 {
				if _, _, err := m.Resolve([]int32{4}, randDraw, noCharge); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("open Memo: got %v, want ErrCorrupt", err)
				}
			}
		})
	}
}

// TestTornTail: a partial last record (a crash mid-append) is dropped; the
// memo opens and keeps every complete record.
func TestTornTail(t *testing.T) {
	dir := t.TempDir()
	r := mustResolve(t, mustOpen(t, dir, testID, secretOf(1)), 1, 2)
	p := memoFile(t, dir)
	appendBytes(t, p, make([]byte, recordLen-1))
	m := mustOpen(t, dir, testID, secretOf(1))
	if got, _, err := m.Resolve([]int32{1, 2}, refuseDraw(t), noCharge); err != nil || !slices.Equal(got, r) {
		t.Fatalf("after torn tail: %v %v", got, err)
	}
	if st, _ := os.Stat(p); st.Size() != headerLen+2*recordLen {
		t.Fatalf("torn tail kept: size %d", st.Size())
	}
	mustResolve(t, m, 3)
	if n, err := mustOpen(t, dir, testID, secretOf(1)).Len(); n != 3 || err != nil {
		t.Fatalf("Len %d %v", n, err)
	}
}

// TestReplacedUnderOpenMemo: deleting, replacing or rolling back the file
// under an open Memo fails closed; an identical copy is followed.
func TestReplacedUnderOpenMemo(t *testing.T) {
	tests := []struct {
		name    string
		replace func(t *testing.T, dir, p string, old []byte)
		ok      bool
	}{
		{"identical copy", func(t *testing.T, dir, p string, _ []byte) {
			b, _ := os.ReadFile(p)
			os.WriteFile(p+".tmp", b, 0o600)
			os.Rename(p+".tmp", p)
		}, true},
		{"deleted", func(t *testing.T, dir, p string, _ []byte) { os.Remove(p) }, false},
		{"older copy", func(t *testing.T, dir, p string, old []byte) {
			os.WriteFile(p+".tmp", old, 0o600)
			os.Rename(p+".tmp", p)
		}, false},
		{"another memo", func(t *testing.T, dir, p string, _ []byte) {
			other := t.TempDir()
			mustResolve(t, mustOpen(t, other, testID, secretOf(1)), 1, 2, 3)
			b, _ := os.ReadFile(memoFile(t, other))
			os.WriteFile(p+".tmp", b, 0o600)
			os.Rename(p+".tmp", p)
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			m := mustOpen(t, dir, testID, secretOf(1))
			mustResolve(t, m, 1)
			p := memoFile(t, dir)
			old, _ := os.ReadFile(p)
			mustResolve(t, m, 2)
			tc.replace(t, dir, p, old)
			_, err := m.Len()
			if tc.ok != (err == nil) || (!tc.ok && !errors.Is(err, ErrCorrupt)) {
				t.Fatalf("got %v, want ok=%v or ErrCorrupt", err, tc.ok)
			}
			if tc.ok {
				mustResolve(t, m, 3)
				if n, _ := mustOpen(t, dir, testID, secretOf(1)).Len(); n != 3 {
					t.Fatalf("after following the copy: %d words", n)
				}
			}
		})
	}
}
