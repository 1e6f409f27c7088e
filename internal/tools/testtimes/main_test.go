package main

import (
	"strings"
	"testing"
	"time"
)

const sample = `{"Action":"run","Package":"p","Test":"TestA"}
build output that is not JSON
{"Action":"pass","Package":"p","Test":"TestA/sub","Elapsed":90}
{"Action":"pass","Package":"p","Test":"TestA","Elapsed":12.5}
{"Action":"fail","Package":"q","Test":"TestB","Elapsed":61}
{"Action":"skip","Package":"q","Test":"TestC","Elapsed":0}
{"Action":"pass","Package":"q","Elapsed":80}
`

func TestReadAndReport(t *testing.T) {
	results, err := read(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 3 {
		t.Fatalf("read %d results, want 3 (subtests and package lines left out): %+v", len(results), results)
	}
	for _, tc := range []struct {
		n        int
		max      time.Duration
		wantOver int
		wantTop  string
	}{
		{n: 10, max: 0, wantOver: 0, wantTop: "q TestB"},
		{n: 1, max: 60 * time.Second, wantOver: 1, wantTop: "q TestB"},
		{n: 2, max: 10 * time.Second, wantOver: 2, wantTop: "q TestB"},
		{n: 2, max: 2 * time.Minute, wantOver: 0, wantTop: "q TestB"},
	} {
		var b strings.Builder
		over := report(&b, append([]result(nil), results...), tc.n, tc.max)
		if over != tc.wantOver {
			t.Errorf("n=%d max=%v: %d over, want %d", tc.n, tc.max, over, tc.wantOver)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		want := tc.n
		if want > 3 {
			want = 3
		}
		if len(lines) != want+1 || !strings.HasSuffix(lines[1], tc.wantTop) {
			t.Errorf("n=%d: report\n%s\nwant %d rows, %q first", tc.n, b.String(), want, tc.wantTop)
		}
	}
}
