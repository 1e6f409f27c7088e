package pipeline

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/core"
)

// readManifest reads dir's MANIFEST.json and the lines of every file it
// names with the given prefix, checking each file's size and checksum: a
// consumer's view of a committed run.
func readManifest[T any](t testing.TB, dir, prefix string) (Manifest, []T) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []T
	for _, f := range m.Files {
		if !strings.HasPrefix(f.Name, prefix+"-") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(data); int64(len(data)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Fatalf("%s does not match the manifest", f.Name)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var v T
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
	}
	return m, out
}

// stateInput writes files a.jsonl, b.jsonl and c.jsonl: users u-00 to
// u-19, each with records of 1 to 6 vocabulary words in every file, so
// that globs over two of them overlap.
func stateInput(t testing.TB, dir string) {
	t.Helper()
	words := strings.Fields("the doctor said that we should walk to the station and call home after work today")
	rng := rand.New(rand.NewPCG(37, 37))
	for _, name := range []string{"a", "b", "c"} {
		var b strings.Builder
		for i := range 60 {
			n := 1 + rng.IntN(6)
			start := rng.IntN(len(words) - n)
			fmt.Fprintf(&b, `{"user":"u-%02d","text":%q}`+"\n", i%20, strings.Join(words[start:start+n], " "))
		}
		if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot returns every file under dir (recursively) by relative path.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[rel] = string(b)
		return nil
	})
	return m
}

func copyDir(t testing.TB, from, to string) {
	t.Helper()
	for rel, b := range snapshot(t, from) {
		p := filepath.Join(to, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(b), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// Three runs over overlapping inputs sharing a state: every user's words
// released across all three stay within the cap in words, and their
// charges within the cap in loss, recomputed here from the records the
// manifests name; the state's running totals agree. Each run releases
// something, and the later runs withhold records that fit the cap in a
// run of their own.
func TestStateAcrossRuns(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "in")
	os.Mkdir(in, 0o755)
	stateInput(t, in)
	const capWords = 40
	o := Options{Engine: Engine{Mechanism: "1dg"}, CapWords: capWords, Shards: 3,
		State: filepath.Join(root, "ops", "state"), StateKey: filepath.Join(root, "keys", "state.key")}
	p, err := core.Open(o.Engine.Config())
	if err != nil {
		t.Fatal(err)
	}
	capLoss, err := core.WordCap(capWords, p.Info().WordCost)
	p.Close()
	if err != nil {
		t.Fatal(err)
	}
	words, loss := map[string]int{}, map[string]float64{}
	for i, glob := range []string{"[ab].jsonl", "[bc].jsonl", "[ac].jsonl"} {
		o.Input, o.Output = filepath.Join(in, glob), filepath.Join(root, fmt.Sprintf("out-%d", i+1))
		c := run(t, o)
		m, recs := readManifest[Output](t, o.Output, recordsPrefix)
		if m.State == nil || m.State.Generation != int64(i+1) {
			t.Fatalf("run %d: manifest state %+v, want generation %d", i+1, m.State, i+1)
		}
		// Each run alone fits the cap (about 20 words a user); the later
		// ones withhold because of what the earlier ones spent.
		if c.Released == 0 || (i > 0) != (c.Withheld > 0) {
			t.Fatalf("run %d: %+v: want records released, and withheld from the second run on", i+1, c)
		}
		for _, r := range recs {
			words[r.User] += r.Words
			loss[r.User] += *r.UnitFree
		}
		_, budget := readManifest[Summary](t, o.Output, budgetPrefix)
		for _, s := range budget {
			if s.TotalWords == nil || int(*s.TotalWords) != words[s.User] {
				t.Errorf("run %d: %s: totalWords %v, want %d (recomputed)", i+1, s.User, s.TotalWords, words[s.User])
			}
		}
	}
	for u, w := range words {
		if w > capWords || loss[u] > capLoss {
			t.Errorf("%s: %d words (loss %v) released over three runs, cap %d words (%v)", u, w, loss[u], capWords, capLoss)
		}
	}
	if len(words) != 20 {
		t.Fatalf("%d users released, want 20", len(words))
	}
}

// A state that fails its checks fails the run before anything is
// written: the output directory stays empty and the state and its anchor
// are as they were.
func TestStateFaults(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "in")
	os.Mkdir(in, 0o755)
	stateInput(t, in)
	good := filepath.Join(root, "good")
	o := Options{Engine: Engine{Mechanism: "1dg"}, CapWords: 30, Shards: 2, Input: filepath.Join(in, "a.jsonl"),
		State: filepath.Join(good, "state"), StateKey: filepath.Join(good, "key")}
	o.Output = filepath.Join(root, "out-1")
	run(t, o)
	older := filepath.Join(root, "older")
	copyDir(t, good, older)
	o.Output, o.Input = filepath.Join(root, "out-2"), filepath.Join(in, "b.jsonl")
	run(t, o)

	shard := func(dir string) string {
		m, _ := filepath.Glob(filepath.Join(dir, "state", "state-g000002-*.jsonl"))
		if len(m) == 0 {
			t.Fatal("no state shard")
		}
		return m[0]
	}
	cases := []struct {
		name  string
		fault func(dir string)
		want  string
	}{
		{"a shard tampered", func(dir string) {
			p := shard(dir)
			b, _ := os.ReadFile(p)
			b[len(b)/2] ^= 1
			os.WriteFile(p, b, 0o600)
		}, "does not match its seal"},
		{"a shard truncated", func(dir string) {
			p := shard(dir)
			b, _ := os.ReadFile(p)
			os.WriteFile(p, b[:len(b)-10], 0o600)
		}, "truncated"},
		{"a shard removed", func(dir string) { os.Remove(shard(dir)) }, "cannot be read"},
		{"the seal edited", func(dir string) {
			p := filepath.Join(dir, "state", sealName(2))
			b, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(b, []byte(`"shards": 2`), []byte(`"shards": 3`), 1), 0o600)
		}, "does not verify"},
		{"replaced by an older generation", func(dir string) {
			os.RemoveAll(filepath.Join(dir, "state"))
			copyDir(t, filepath.Join(older, "state"), filepath.Join(dir, "state"))
		}, "does not hold generation 2"},
		{"missing", func(dir string) { os.RemoveAll(filepath.Join(dir, "state")) }, "is missing"},
		{"another key", func(dir string) {
			os.WriteFile(filepath.Join(dir, "key"), bytes.Repeat([]byte{7}, 32), 0o600)
		}, "does not verify"},
		{"the anchor deleted", func(dir string) { os.Remove(filepath.Join(dir, "key.anchor")) }, "has no anchor"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if raceEnabled {
				t.Skip(beamFailureRace)
			}
			dir := t.TempDir()
			copyDir(t, good, dir)
			c.fault(dir)
			before := snapshot(t, dir)
			o := o
			o.State, o.StateKey = filepath.Join(dir, "state"), filepath.Join(dir, "key")
			o.Output, o.Input = filepath.Join(dir, "out"), filepath.Join(in, "c.jsonl")
			_, err := Run(t.Context(), o, "")
			if !errors.Is(err, ErrCorruptState) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want ErrCorruptState saying %q", err, c.want)
			}
			if ents, _ := os.ReadDir(o.Output); len(ents) > 0 {
				t.Errorf("the output directory holds %d files", len(ents))
			}
			after := snapshot(t, dir)
			if len(after) != len(before) {
				t.Errorf("the state changed: %d files, then %d", len(before), len(after))
			}
			for k, v := range before {
				if after[k] != v {
					t.Errorf("the state's %s changed", k)
				}
			}
		})
	}
}
