package pipeline

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// The state: each user's spending as of the last committed run, carried
// from run to run so that a user's cap covers every run that shares it.
//
// Layout of the state directory (flat, so that an object store holds it
// as well as a local disk):
//
//	seal-g000002.json                    the generation's seal (below)
//	state-g000002-00003-of-00008.jsonl   its shards: one line per user, {"user","spent","words","released"}
//	pending.json                         the run under way, if any: what to clean if it never commits
//
// and, apart from it, with the key (Options.StateAnchor), the anchor: the
// state's id, its last committed generation and that generation's MAC.
//
// A seal names its generation's shards with their sizes and SHA-256, the
// run that wrote it, that run's manifest and the manifest's SHA-256, and
// the MAC of the generation before it (a chain from a genesis value keyed
// by the state's id); its own MAC is HMAC-SHA256 under a key derived from
// the operator's key file. A run opens the generation the anchor names,
// checks its MAC and every shard's size and checksum (and each worker
// checks the checksum again as it reads), and fails on any mismatch
// before it writes anything.
//
// What it defends: an edit of any shard, seal or the anchor's pointer
// (without the key, no valid seal can be made); a shard truncated,
// removed or swapped in from another generation or another state; the
// state directory replaced by an older copy of itself, or deleted, while
// the anchor is kept (the anchor names a later generation). What it does
// not defend: anyone holding the key (they can seal any spending); the
// state directory and the anchor restored together from an older copy, or
// both deleted (a fresh state: keep the anchor where the data's writers
// cannot write, with the key); confidentiality (user keys and spending are
// in clear text). It assumes one run at a time per state directory.

// ErrCorruptState is a state that fails its checks: tampered, truncated,
// older than its anchor, missing, or sealed under another key. The run
// fails before it writes anything.
var ErrCorruptState = errors.New("corrupt state")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("wordveil-beam: %w: %s", ErrCorruptState, fmt.Sprintf(format, args...))
}

// stateKeyBytes is the least key-file length accepted.
const stateKeyBytes = 32

// spending is one user's line in a state generation.
type spending struct {
	User string `json:"user"`
	// Spent is at least the exact sum of every charge granted to the user
	// in the committed runs (rounded up, never down).
	Spent    float64 `json:"spent"`
	Words    int64   `json:"words"`    // words privatized in the released records
	Released int64   `json:"released"` // records released
}

// seal is a state generation's sealed index.
type seal struct {
	Version        int         `json:"version"`
	StateID        string      `json:"stateId"`
	Generation     int64       `json:"generation"`
	Run            string      `json:"run"`
	Shards         int         `json:"shards"` // how many files the generation was written in (Options.Shards)
	Files          []fileEntry `json:"files"`  // names relative to the state directory
	Manifest       string      `json:"manifest"`
	ManifestSHA256 string      `json:"manifestSha256"`
	Prev           string      `json:"prev"` // the MAC of the generation before (the genesis value for the first)
	MAC            string      `json:"mac"`
}

// anchor is the pointer kept apart from the state: which state and which
// generation of it is the last committed, and that generation's MAC.
type anchor struct {
	StateID    string `json:"stateId"`
	Generation int64  `json:"generation"`
	Head       string `json:"head"`
}

// pending names the run under way: its id, output directory and the
// generation it would write.
type pending struct {
	Run        string `json:"run"`
	Output     string `json:"output"`
	Generation int64  `json:"generation"`
}

func sealName(gen int64) string { return fmt.Sprintf("seal-g%06d.json", gen) }

// statePrefix is the prefix of a generation's shard files.
func statePrefix(gen int64) string { return fmt.Sprintf("state-g%06d", gen) }

var (
	sealFile  = regexp.MustCompile(`^seal-g(\d{6,})\.json$`)
	stateFile = regexp.MustCompile(`^state-g(\d{6,})-\d{5}-of-\d{5}\.jsonl(\.tmp-[0-9a-f]+)?$`)
)

// macKey derives the sealing key from the operator's key file.
func macKey(key []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("wordveil-beam state seal v1"))
	return m.Sum(nil)
}

func genesis(key []byte, stateID string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("genesis\x00" + stateID))
	return hex.EncodeToString(m.Sum(nil))
}

// macOf is s's MAC: over its JSON with the MAC field empty.
func (s seal) macOf(key []byte) string {
	s.MAC = ""
	b, _ := json.Marshal(s) // plain strings and integers: never fails
	m := hmac.New(sha256.New, key)
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil))
}

// stateRun is a run's view of its state: the committed generation it
// reads, and the one it writes.
type stateRun struct {
	dir, anchorPath string
	key             []byte // the derived MAC key
	id              string
	cur             *seal // nil: generation 0, nobody has spent anything
	head            string
	next            int64

	// What opening decided to write (apply does it).
	fresh      bool     // a new state: store the anchor of generation 0
	newKey     []byte   // a key file to create (a new state without one)
	keyFile    string   //
	rollTo     *seal    // a generation committed but not anchored: move the anchor to it
	garbage    []string // files of crashed or superseded runs
	cleanOut   []string // output directories of crashed runs
	curShards  []string // paths of cur's files
	anchorSeen bool
}

// loadStateKey reads the operator's key. A missing key file is allowed
// only for a state that does not exist yet: a new key is then made.
func loadStateKey(file string) (key []byte, created bool, err error) {
	b, err := os.ReadFile(file)
	switch {
	case errors.Is(err, os.ErrNotExist):
		k := make([]byte, stateKeyBytes)
		if _, err := rand.Read(k); err != nil {
			return nil, false, err
		}
		return k, true, nil
	case err != nil:
		return nil, false, fmt.Errorf("%w: the state key: %w", ErrInvalidOptions, err)
	case len(b) < stateKeyBytes:
		return nil, false, invalid("the state key %s holds %d bytes, fewer than %d", file, len(b), stateKeyBytes)
	}
	return b, false, nil
}

// openState checks the state directory against the anchor and the key,
// and works out what the run will read and write. It writes nothing:
// apply does, once the output directory has been checked too.
func openState(ctx context.Context, o settled) (*stateRun, error) {
	rawKey, created, err := loadStateKey(o.StateKey)
	if err != nil {
		return nil, err
	}
	sr := &stateRun{dir: o.State, anchorPath: o.stateAnchor, key: macKey(rawKey), keyFile: o.StateKey}
	files, err := listFiles(ctx, joinPath(o.State, "*"))
	if err != nil {
		return nil, fmt.Errorf("wordveil-beam: listing the state %s: %w", o.State, err)
	}
	seals := map[int64]string{}
	var shardFiles, others []string
	for _, f := range files {
		b := baseName(f)
		switch m := sealFile.FindStringSubmatch(b); {
		case m != nil:
			g, _ := strconv.ParseInt(m[1], 10, 64)
			seals[g] = f
		case stateFile.MatchString(b):
			shardFiles = append(shardFiles, f)
		case b == "pending.json":
		default:
			others = append(others, b)
		}
	}
	if len(others) > 0 {
		return nil, corrupt("the state directory %s holds files that are not state (%s): give the state its own directory", o.State, others[0])
	}
	ab, err := readSmall(ctx, sr.anchorPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if len(seals) > 0 || len(shardFiles) > 0 {
			return nil, corrupt("the state %s has no anchor at %s (deleted, or the wrong -state-anchor)", o.State, sr.anchorPath)
		}
		var id [16]byte
		if _, err := rand.Read(id[:]); err != nil {
			return nil, err
		}
		sr.id, sr.fresh = hex.EncodeToString(id[:]), true
		sr.head = genesis(sr.key, sr.id)
		if created {
			sr.newKey = rawKey
		}
	case err != nil:
		return nil, fmt.Errorf("wordveil-beam: reading the state's anchor %s: %w", sr.anchorPath, err)
	default:
		if created {
			return nil, invalid("the state key %s does not exist, and the state %s does (its anchor is %s): give the key it was sealed with", o.StateKey, o.State, sr.anchorPath)
		}
		var a anchor
		if err := json.Unmarshal(ab, &a); err != nil || a.StateID == "" || a.Generation < 0 {
			return nil, corrupt("the anchor %s is not an anchor", sr.anchorPath)
		}
		sr.id, sr.head, sr.anchorSeen = a.StateID, a.Head, true
		if a.Generation == 0 {
			if a.Head != genesis(sr.key, a.StateID) {
				return nil, corrupt("the anchor %s was made under another key", sr.anchorPath)
			}
		} else {
			p, ok := seals[a.Generation]
			if !ok {
				if len(seals) == 0 {
					return nil, corrupt("the state %s is missing: its anchor names generation %d", o.State, a.Generation)
				}
				return nil, corrupt("the state %s does not hold generation %d, the one its anchor names (an older copy?)", o.State, a.Generation)
			}
			s, err := readSeal(ctx, p, sr.key)
			if err != nil {
				return nil, err
			}
			if s.StateID != a.StateID || s.Generation != a.Generation || s.MAC != a.Head {
				return nil, corrupt("%s is not the generation the anchor names (another copy, or another state)", p)
			}
			sr.cur = s
		}
	}
	gen := int64(0)
	if sr.cur != nil {
		gen = sr.cur.Generation
	}
	// A later generation than the anchor's: a run that sealed and then
	// crashed. Committed if its manifest was published: the anchor moves
	// to it. Otherwise it never happened: its files go.
	for g, p := range seals {
		switch {
		case g > gen+1:
			return nil, corrupt("the state %s holds generation %d, past the anchor's %d and its successor", o.State, g, gen)
		case g < gen:
			sr.garbage = append(sr.garbage, p) // superseded; a crash before its removal left it
		case g == gen+1:
			s, err := readSeal(ctx, p, sr.key)
			if err != nil {
				return nil, err
			}
			if s.StateID != sr.id || s.Prev != sr.head {
				return nil, corrupt("%s does not follow generation %d", p, gen)
			}
			mb, err := readSmall(ctx, s.Manifest)
			switch {
			case errors.Is(err, os.ErrNotExist):
				sr.garbage = append(sr.garbage, p)
				sr.cleanOut = append(sr.cleanOut, dirOf(s.Manifest))
			case err != nil:
				return nil, err
			case sha256Hex(mb) != s.ManifestSHA256:
				return nil, corrupt("the manifest %s does not match generation %d's seal", s.Manifest, g)
			default:
				sr.rollTo, sr.cur, sr.head, gen = s, s, s.MAC, g
			}
		}
	}
	sr.next = gen + 1
	// The shards: the current generation's must be whole; any other is a
	// crashed run's staging, or a superseded generation's.
	named := map[string]fileEntry{}
	if sr.cur != nil {
		for _, f := range sr.cur.Files {
			named[f.Name] = f
		}
	}
	for _, f := range shardFiles {
		if _, ok := named[baseName(f)]; !ok {
			sr.garbage = append(sr.garbage, f)
		}
	}
	if sr.cur != nil {
		for _, f := range sr.cur.Files {
			p := joinPath(o.State, f.Name)
			n, sum, err := hashFile(ctx, p)
			switch {
			case err != nil:
				return nil, corrupt("generation %d's file %s cannot be read (%v)", sr.cur.Generation, f.Name, err)
			case n != f.Size:
				return nil, corrupt("generation %d's file %s holds %d bytes, its seal says %d (truncated?)", sr.cur.Generation, f.Name, n, f.Size)
			case sum != f.SHA256:
				return nil, corrupt("generation %d's file %s does not match its seal (tampered?)", sr.cur.Generation, f.Name)
			}
			sr.curShards = append(sr.curShards, p)
		}
	}
	if pb, err := readSmall(ctx, joinPath(o.State, "pending.json")); err == nil {
		var pd pending
		if json.Unmarshal(pb, &pd) == nil && pd.Output != "" && (sr.cur == nil || pd.Run != sr.cur.Run) {
			sr.cleanOut = append(sr.cleanOut, pd.Output)
		}
		sr.garbage = append(sr.garbage, joinPath(o.State, "pending.json"))
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return sr, nil
}

func readSeal(ctx context.Context, path string, key []byte) (*seal, error) {
	b, err := readSmall(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("wordveil-beam: reading %s: %w", path, err)
	}
	var s seal
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, corrupt("%s is not a seal", path)
	}
	if !hmac.Equal([]byte(s.macOf(key)), []byte(s.MAC)) {
		return nil, corrupt("%s does not verify under the state key (tampered, or another key)", path)
	}
	if baseName(path) != sealName(s.Generation) {
		return nil, corrupt("%s holds generation %d", path, s.Generation)
	}
	return &s, nil
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// dirOf is the directory of a local path or URL.
func dirOf(p string) string {
	if isLocal(p) {
		return filepath.Dir(p)
	}
	return p[:len(p)-len(baseName(p))-1]
}

// apply writes what openState decided: a new key and anchor, a committed
// generation's anchor, the removal of crashed runs' files; then marks this
// run as pending.
func (sr *stateRun) apply(ctx context.Context, run, output string) error {
	if sr.newKey != nil {
		if err := os.MkdirAll(filepath.Dir(sr.keyFile), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(sr.keyFile, sr.newKey, 0o600); err != nil {
			return fmt.Errorf("wordveil-beam: creating the state key: %w", err)
		}
	}
	if sr.fresh {
		if err := sr.storeAnchor(ctx, 0, sr.head); err != nil {
			return err
		}
	}
	if sr.rollTo != nil {
		if err := sr.storeAnchor(ctx, sr.rollTo.Generation, sr.rollTo.MAC); err != nil {
			return err
		}
	}
	for _, d := range sr.cleanOut {
		if err := cleanOutput(ctx, d); err != nil {
			return err
		}
	}
	if err := remove(ctx, sr.garbage...); err != nil {
		return err
	}
	pb, _ := json.Marshal(pending{Run: run, Output: output, Generation: sr.next})
	return writeAtomic(ctx, joinPath(sr.dir, "pending.json"), pb)
}

func (sr *stateRun) storeAnchor(ctx context.Context, gen int64, head string) error {
	b, _ := json.Marshal(anchor{StateID: sr.id, Generation: gen, Head: head})
	if err := writeAtomic(ctx, sr.anchorPath, b); err != nil {
		return fmt.Errorf("wordveil-beam: storing the state's anchor: %w", err)
	}
	return nil
}

// commitSeal seals the generation the run wrote, naming the manifest it
// is about to publish; the anchor moves after the manifest (commitAnchor).
func (sr *stateRun) commitSeal(ctx context.Context, run string, shards int, manifestPath string, manifest []byte) (*seal, error) {
	files, err := entriesOf(ctx, sr.dir, statePrefix(sr.next)+"-*-of-*.jsonl", func(n string) string { return n })
	if err != nil {
		return nil, err
	}
	s := seal{Version: 1, StateID: sr.id, Generation: sr.next, Run: run, Shards: shards, Files: files,
		Manifest: manifestPath, ManifestSHA256: sha256Hex(manifest), Prev: sr.head}
	s.MAC = s.macOf(sr.key)
	b, _ := json.MarshalIndent(s, "", "  ")
	if err := writeAtomic(ctx, joinPath(sr.dir, sealName(s.Generation)), append(b, '\n')); err != nil {
		return nil, err
	}
	return &s, nil
}

// commitAnchor moves the anchor to the new generation, then removes what
// it superseded and the pending mark.
func (sr *stateRun) commitAnchor(ctx context.Context, s *seal) error {
	if err := sr.storeAnchor(ctx, s.Generation, s.MAC); err != nil {
		return err
	}
	old := []string{joinPath(sr.dir, "pending.json")}
	if sr.cur != nil {
		old = append(old, joinPath(sr.dir, sealName(sr.cur.Generation)))
		old = append(old, sr.curShards...)
	}
	return remove(ctx, old...)
}

// abort removes the run's staged generation and its pending mark.
func (sr *stateRun) abort(ctx context.Context) {
	staged, _ := listFiles(ctx, joinPath(sr.dir, statePrefix(sr.next)+"-*"))
	remove(ctx, staged...)
	remove(ctx, joinPath(sr.dir, "pending.json"))
}

// stateShard is one file of the generation a run reads.
type stateShard struct {
	Path   string
	Size   int64
	SHA256 string
}

func (sr *stateRun) shards() []stateShard {
	var out []stateShard
	if sr == nil || sr.cur == nil {
		return out
	}
	for i, f := range sr.cur.Files {
		out = append(out, stateShard{Path: sr.curShards[i], Size: f.Size, SHA256: f.SHA256})
	}
	return out
}

// readStateFn reads one shard of the state generation into (user,
// spending), checking as it reads that the file is the one sealed: its
// size and SHA-256 are checked at its end, and a mismatch fails the run
// (which then commits nothing), so a file changed after the launcher
// checked it is caught too.
type readStateFn struct{}

func (*readStateFn) ProcessElement(ctx context.Context, sh stateShard, emit func(string, spending)) error {
	return withFS(ctx, sh.Path, func(fs filesystem.Interface) error {
		rc, err := fs.OpenRead(ctx, sh.Path)
		if err != nil {
			return err
		}
		defer rc.Close()
		h := sha256.New()
		cr := &countingReader{r: io.TeeReader(rc, h)}
		r := newLineReader(cr, 1<<20)
		for n := int64(1); ; n++ {
			l, err := r.readLine()
			if err != nil && err != io.EOF {
				return corrupt("%s line %d: %v", sh.Path, n, err)
			}
			if l != "" {
				var s spending
				dec := json.NewDecoder(bytes.NewReader([]byte(l)))
				dec.DisallowUnknownFields()
				if derr := dec.Decode(&s); derr != nil || s.User == "" || !(s.Spent >= 0) || math.IsInf(s.Spent, 0) {
					return corrupt("%s line %d is not a user's spending", sh.Path, n)
				}
				emit(s.User, s)
				crashPoint("state")
			}
			if err == io.EOF {
				break
			}
		}
		if cr.n != sh.Size || hex.EncodeToString(h.Sum(nil)) != sh.SHA256 {
			return corrupt("%s changed after it was checked", sh.Path)
		}
		return nil
	})
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// sortEntries orders entries by name.
func sortEntries(es []fileEntry) {
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
}

// readStates is the keyed side of the join: every user's spending in the
// generation the run reads (none for a new state, or without one).
func readStates(s beam.Scope, sr *stateRun) beam.PCollection {
	return beam.ParDo(s, &readStateFn{}, beam.CreateList(s, sr.shards()))
}
