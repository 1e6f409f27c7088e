package memo

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"os"
	"testing"
)

// memoBytes returns the file of a new memo holding words[i] → resp[i].
func memoBytes(t *testing.T, words, resp []int32) []byte {
	t.Helper()
	dir := t.TempDir()
	m := mustOpen(t, dir, testID, secretOf(1))
	_, _, err := m.Resolve(words, func(w int32) (int32, error) {
		for i := range words {
			if words[i] == w {
				return resp[i], nil
			}
		}
		return 0, os.ErrInvalid
	}, noCharge)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(memoFile(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// chiSquare is Pearson's statistic of b's byte histogram against the
// uniform distribution (255 degrees of freedom: mean 255, sd 22.6).
func chiSquare(b []byte) float64 {
	var n [256]float64
	for _, c := range b {
		n[c]++
	}
	e := float64(len(b)) / 256
	x := 0.0
	for _, o := range n {
		x += (o - e) * (o - e) / e
	}
	return x
}

// uniformLimit is about mean + 6.4 sd: a uniform source exceeds it with
// probability below 1e-9, so the check cannot flake, while structured data
// (ids, small responses) is far above it.
const uniformLimit = 400

// plainHits counts how many of ids appear in b as 4-byte little-endian
// integers, anywhere. For random bytes of length L the expected count is
// len(ids)·L/2^32 (about 0.01 here); stored in plain form, all appear.
func plainHits(b []byte, ids []int32) int {
	hits := 0
	var k [4]byte
	for _, id := range ids {
		binary.LittleEndian.PutUint32(k[:], uint32(id))
		if bytes.Contains(b, k[:]) {
			hits++
		}
	}
	return hits
}

// sameWindows counts offsets (after the magic) where a and b hold the same
// 4 bytes: about len/2^32 for independent random files; every record for
// a file that stored ids or responses in plain form at fixed places.
func sameWindows(a, b []byte) int {
	n := 0
	for i := magicLen; i+4 <= min(len(a), len(b)); i++ {
		if bytes.Equal(a[i:i+4], b[i:i+4]) {
			n++
		}
	}
	return n
}

// TestAtRestRevealsOnlyTheCount: without the secret, two memos of the same
// number of different words look alike (same size, same fixed header
// bytes, uniform bytes otherwise), no word id or response appears, and two
// memos of the same words and responses share nothing but the magic.
func TestAtRestRevealsOnlyTheCount(t *testing.T) {
	const n = 1000
	wa, ra, wb, rb := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range n {
		wa[i], ra[i] = int32(i), int32(i)                  // structured: id → itself
		wb[i], rb[i] = int32(50_000+7*i), int32(123_456+i) // other words and responses
	}
	a, b := memoBytes(t, wa, ra), memoBytes(t, wb, rb)
	a2 := memoBytes(t, wa, ra) // same content as a, another salt and file id
	if len(a) != len(b) || len(a) != headerLen+n*recordLen {
		t.Fatalf("sizes %d and %d, want %d", len(a), len(b), headerLen+n*recordLen)
	}
	if !bytes.Equal(a[:magicLen], b[:magicLen]) {
		t.Fatal("fixed header bytes differ")
	}
	for name, f := range map[string][]byte{"a": a, "b": b, "a2": a2} {
		x := chiSquare(f[magicLen:])
		hits := plainHits(f, append(append(append([]int32{}, wa...), wb...), rb...))
		t.Logf("file %s: %d bytes, chi-square %.1f (limit %d), plain ids/responses found %d of %d", name, len(f), x, uniformLimit, hits, 3*n)
		if x > uniformLimit || hits > 10 {
			t.Fatalf("file %s is not uniform or holds plain ids", name)
		}
	}
	if s := sameWindows(a, a2); s > 10 {
		t.Fatalf("two memos of the same words share %d 4-byte windows", s)
	} else {
		t.Logf("same words, different salt: %d shared 4-byte windows of %d", s, len(a)-magicLen-3)
	}
}

// TestAtRestNegativeControl: the checks above do catch a file that stores
// ids and responses in plain form in records of the same size, padded
// with random bytes.
func TestAtRestNegativeControl(t *testing.T) {
	const n = 1000
	plain := func() []byte {
		b := make([]byte, headerLen+n*recordLen)
		rand.Read(b)
		copy(b, magic[:])
		for i := range n {
			r := b[headerLen+i*recordLen:]
			binary.LittleEndian.PutUint32(r, uint32(i))
			binary.LittleEndian.PutUint32(r[4:], uint32(i))
		}
		return b
	}
	a, a2 := plain(), plain()
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	x, hits, same := chiSquare(a[magicLen:]), plainHits(a, ids), sameWindows(a, a2)
	t.Logf("plain file: chi-square %.1f, ids found %d of %d, shared windows %d", x, hits, n, same)
	if x <= uniformLimit || hits <= 10 || same <= 10 {
		t.Fatal("the at-rest checks miss a plaintext file")
	}
}
