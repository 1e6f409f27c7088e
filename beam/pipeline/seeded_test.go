package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// shardFile is the name of a complete output file.
var shardFile = regexp.MustCompile(`^(budget-\d{5}-of-\d{5}|records-[0-9a-f]{24}-\d{6,})\.jsonl$`)

// dirBytes returns every file of dir by name.
func dirBytes(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for _, e := range ents {
		if e.Name() == ManifestName { // names the run: differs from run to run
			continue
		}
		// Only complete shard files: no temporary file is left behind.
		if !shardFile.MatchString(e.Name()) {
			t.Errorf("%s: unexpected file %s", dir, e.Name())
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = b
	}
	return m
}

// The same seed gives the same output files byte for byte: which records
// a cap releases and every privatized text. Run on 200,000 words (20,000
// with -short) from 1,000 users with a cap, twice with seed 9 and once
// with seed 10, the negative control, which must change the texts (and
// nothing about which records are released: that depends on the input
// alone).
func TestSeededRunsIdentical(t *testing.T) {
	words := 200_000
	if testing.Short() {
		words = 20_000
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	genCorpus(t, in, words, 1000, 4, 11)
	outs := map[string]map[string][]byte{}
	for _, r := range []struct {
		name string
		seed uint64
	}{{"a", 9}, {"b", 9}, {"control", 10}} {
		o := Options{Input: filepath.Join(in, "*"), Output: filepath.Join(dir, "out-"+r.name), Seed: r.seed, CapWords: 300, Shards: 3}
		run(t, o)
		outs[r.name] = dirBytes(t, o.Output)
	}
	if len(outs["a"]) == 0 {
		t.Fatal("no output files")
	}
	for name, b := range outs["a"] {
		if !bytes.Equal(b, outs["b"][name]) {
			t.Errorf("%s differs between two runs with the same seed", name)
		}
	}
	if len(outs["a"]) != len(outs["b"]) {
		t.Errorf("%d files, then %d", len(outs["a"]), len(outs["b"]))
	}
	for name, b := range outs["a"] {
		c := outs["control"][name]
		switch {
		case strings.HasPrefix(name, budgetPrefix) && !bytes.Equal(b, c):
			t.Errorf("%s: the budget depends on the seed", name)
		case strings.HasPrefix(name, recordsPrefix) && bytes.Equal(b, c):
			t.Errorf("%s: another seed gave the same texts (the control cannot fail)", name)
		}
	}
}

// buildCLI builds the SDK's command-line tool, wordveil, from the module
// this one replaces it with (the parent directory).
func buildCLI(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "wordveil")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/wordveil/wordveil/cmd/wordveil")
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the CLI: %v\n%s", err, out)
	}
	return bin
}

// cliRecord is what the test reads of `wordveil privatize -json`.
type cliRecord struct {
	Text     string   `json:"text"`
	Words    int      `json:"words"`
	OOV      int      `json:"oov"`
	UnitFree *float64 `json:"unitFree"`
}

// The pipeline is the SDK's engine, not a second implementation: each
// record's output equals what the CLI prints for its text with the
// record's seed (RecordSeed) and the same engine flags, text and
// accounting, for several mechanisms and policies on records of typed
// text (clitics, numbers, e-mail addresses, emoji, hyphens, capitals).
// The control: the CLI with the neighbouring seed disagrees on most
// records.
func TestOutputEqualsCLI(t *testing.T) {
	cli := buildCLI(t)
	texts := []string{
		"I'm meeting Dr. Smith at 5pm, email me at jane.doe@example.com lol",
		"don't worry about it 🙂 we're gonna be fine",
		"The U.S. team won 3-1 in 1990!!",
		"well-known facts about the cat that sat on the mat",
		"OK OK ok... y'all ready?",
		"zxqv qwrtplk nothing in the vocabulary here",
		"Paris is lovely in the spring, said Marie.",
		"numbers: 5 7 42 1000 3.5",
	}
	engines := []struct {
		name  string
		e     Engine
		flags []string
	}{
		{"brr balanced", Engine{}, nil},
		{"1dg strong, placeholder", Engine{Mechanism: "1dg", Level: "strong", OOV: "placeholder"}, []string{"-mechanism", "1dg", "-preset", "strong", "-oov", "placeholder"}},
		{"santext at ε 0.3, numbers replaced, punctuation", Engine{Mechanism: "santext", Epsilon: 0.3, Numbers: "replace", PrivatizePunctuation: true},
			[]string{"-mechanism", "santext", "-epsilon", "0.3", "-numbers", "replace", "-punct"}},
	}
	for _, eng := range engines {
		t.Run(eng.name, func(t *testing.T) {
			dir := t.TempDir()
			var in strings.Builder
			for i, tx := range texts {
				fmt.Fprintf(&in, `{"user":"user-%d","text":%s}`+"\n", i%3, strconv.Quote(tx))
			}
			if err := os.WriteFile(filepath.Join(dir, "in.jsonl"), []byte(in.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			const seed = 2028
			o := Options{Input: filepath.Join(dir, "in.jsonl"), Output: filepath.Join(dir, "out"), Engine: eng.e, Seed: seed}
			run(t, o)
			outs := readJSONL[Output](t, o.Output, recordsPrefix)
			if len(outs) != len(texts) {
				t.Fatalf("%d records, want %d", len(outs), len(texts))
			}
			sort.Slice(outs, func(i, j int) bool { return outs[i].Line < outs[j].Line })
			agree := 0
			for i, out := range outs {
				for _, s := range []uint64{RecordSeed(seed, out.User, out.Source, out.Line), RecordSeed(seed, out.User, out.Source, out.Line) + 1} {
					args := append([]string{"privatize", "-json", "-seed", strconv.FormatUint(s, 10)}, eng.flags...)
					cmd := exec.Command(cli, args...)
					cmd.Stdin = strings.NewReader(texts[i] + "\n")
					var stdout, stderr bytes.Buffer
					cmd.Stdout, cmd.Stderr = &stdout, &stderr
					if err := cmd.Run(); err != nil {
						t.Fatalf("wordveil %v: %v\n%s", args, err, stderr.String())
					}
					var rec cliRecord
					if err := json.Unmarshal(stdout.Bytes(), &rec); err != nil {
						t.Fatalf("wordveil %v: %v: %q", args, err, stdout.String())
					}
					same := strings.TrimSuffix(rec.Text, "\n") == out.Text && rec.Words == out.Words && rec.OOV == out.OOV &&
						(rec.UnitFree == nil) == (out.UnitFree == nil) && (rec.UnitFree == nil || *rec.UnitFree == *out.UnitFree)
					if s == RecordSeed(seed, out.User, out.Source, out.Line) {
						if !same {
							t.Errorf("line %d: pipeline %q (%d words, %v), CLI %q (%d words, %v)", out.Line, out.Text, out.Words, out.UnitFree, rec.Text, rec.Words, rec.UnitFree)
						}
					} else if same {
						agree++
					}
				}
			}
			if agree > len(texts)/2 {
				t.Errorf("the CLI with another seed agreed on %d of %d records: the comparison cannot fail", agree, len(texts))
			}
		})
	}
}
