package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// A run commits, or leaves nothing a consumer reads and no change to the
// state. The pipeline writes the record and budget files under staging
// names (.staging-records-…, .staging-budget-…) and the state's next
// generation as unsealed shards. Then the launcher, in this order:
//
//  1. checksums the staged files and builds MANIFEST.json's content;
//  2. seals the state's new generation (naming the manifest and its
//     SHA-256; the anchor still names the old generation);
//  3. renames the staged files to their final names;
//  4. writes MANIFEST.json (atomically): the commit point;
//  5. moves the anchor to the new generation, and removes the old one.
//
// A crash before 4 leaves no manifest: the next run with the same state
// finds the sealed generation's manifest missing, discards the generation
// (the anchor never moved) and removes the crashed run's files, in its
// output directory too (the state's pending.json names it); a run into the
// same output directory removes them as well. A crash after 4 is a
// committed run: the next run finds the manifest, checks it against the
// seal and moves the anchor. A consumer reads the files MANIFEST.json
// names, and only those.

// ManifestName is the commit's file in the output directory.
const ManifestName = "MANIFEST.json"

// Manifest is MANIFEST.json: what a committed run published.
type Manifest struct {
	Version int            `json:"version"`
	Run     string         `json:"run"`
	State   *ManifestState `json:"state"` // null without Options.State
	Files   []fileEntry    `json:"files"` // the record and budget files, relative to the output directory
	Counts  Counts         `json:"counts"`
}

// ManifestState names the state generation a run committed.
type ManifestState struct {
	StateID    string `json:"stateId"`
	Generation int64  `json:"generation"`
}

// ErrInterrupted is a run stopped by its context (SIGINT in the command)
// before it committed: its staged files are removed and the state is
// unchanged.
var ErrInterrupted = errors.New("wordveil-beam: interrupted; nothing committed")

const stagingPrefix = ".staging-"

// outputFile matches what a run writes in its output directory, staged,
// temporary or final; a directory with anything else is refused. It
// matches the records files' names of the versions before the records
// were written per segment too (records-SSSSS-of-NNNNN.jsonl), so that a
// run cleans what a crashed run of such a version left.
var outputFile = regexp.MustCompile(`^(\.staging-)?(budget-\d{5}-of-\d{5}|records-[0-9a-f]{24}-\d{6,}|records-\d{5}-of-\d{5})\.jsonl(\.tmp-[0-9a-f]+)?$|^MANIFEST\.json(\.tmp-[0-9a-f]+)?$`)

// publishedFile matches the name of a file the commit publishes (a
// budget file or a records file, without its staging prefix).
var publishedFile = regexp.MustCompile(`^(budget-\d{5}-of-\d{5}|records-[0-9a-f]{24}-\d{6,})\.jsonl$`)

// checkOutputDir refuses an output directory that holds a committed run
// (a MANIFEST.json) or files a run does not write. A crashed run's files
// are allowed: cleanOutput removes them. It writes nothing.
func checkOutputDir(ctx context.Context, dir string) error {
	files, err := listFiles(ctx, joinPath(dir, "*"))
	if err != nil {
		return fmt.Errorf("%w: output directory: %w", ErrInvalidOptions, err)
	}
	for _, f := range files {
		switch b := baseName(f); {
		case b == ManifestName:
			return invalid("output directory %s holds a committed run (%s): give a new or empty directory", dir, ManifestName)
		case !outputFile.MatchString(b):
			return invalid("output directory %s is not empty: give a new or empty directory", dir)
		}
	}
	return nil
}

// cleanOutput removes a crashed run's files from dir: staged and
// temporary files always, and the final record and budget files unless a
// manifest (a committed run) is there.
func cleanOutput(ctx context.Context, dir string) error {
	files, err := listFiles(ctx, joinPath(dir, "*"))
	if err != nil {
		return err
	}
	committed := false
	for _, f := range files {
		committed = committed || baseName(f) == ManifestName
	}
	var rm []string
	for _, f := range files {
		b := baseName(f)
		if outputFile.MatchString(b) && b != ManifestName && (!committed || strings.HasPrefix(b, stagingPrefix) || strings.Contains(b, ".tmp-")) {
			rm = append(rm, f)
		}
	}
	// A crashed run's files are independent of one another: removed
	// commitWorkers at a time (a records file per MiB of input).
	return forEach(len(rm), func(i int) error { return removeOne(ctx, rm[i]) })
}

// newRunID names a run: its start time and 64 random bits.
func newRunID() string {
	var r [8]byte
	rand.Read(r[:])
	return time.Now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(r[:])
}

// commit publishes a run whose pipeline finished: steps 1 to 5 above.
func commit(ctx context.Context, st settled, sr *stateRun, run string, c Counts) error {
	files, err := entriesOf(ctx, st.Output, stagingPrefix+"*.jsonl", func(n string) string { return strings.TrimPrefix(n, stagingPrefix) })
	if err != nil {
		return err
	}
	for _, f := range files {
		if !publishedFile.MatchString(f.Name) {
			return fmt.Errorf("wordveil-beam: %s: a staged file the run does not write", f.Name)
		}
	}
	m := Manifest{Version: 1, Run: run, Files: files, Counts: c}
	if sr != nil {
		m.State = &ManifestState{StateID: sr.id, Generation: sr.next}
	}
	mb, _ := json.MarshalIndent(m, "", "  ")
	mb = append(mb, '\n')
	manifestPath := joinPath(st.Output, ManifestName)
	if isLocal(manifestPath) {
		if manifestPath, err = filepath.Abs(manifestPath); err != nil {
			return err
		}
	}
	crashPoint("hashed")
	var sl *seal
	if sr != nil {
		if sl, err = sr.commitSeal(ctx, run, st.Shards, manifestPath, mb); err != nil {
			return err
		}
	}
	crashPoint("sealed")
	err = forEach(len(files), func(i int) error {
		if err := rename(ctx, joinPath(st.Output, stagingPrefix+files[i].Name), joinPath(st.Output, files[i].Name)); err != nil {
			return fmt.Errorf("wordveil-beam: publishing %s: %w", files[i].Name, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	crashPoint("renamed")
	if err := writeAtomic(ctx, manifestPath, mb); err != nil {
		return err
	}
	crashPoint("committed")
	if sr != nil {
		return sr.commitAnchor(ctx, sl)
	}
	return nil
}

// crashAt is a test hook, and only that: the crash-safety tests run the
// command with WORDVEIL_BEAM_CRASH_AT set to one of the points below, and
// the process kills itself (SIGKILL: no deferred call, no cleanup) when it
// gets there. The points: opened, pending (the launcher, before the
// pipeline), read, state, decided, privatized, written (in the pipeline's
// DoFns, in this process on Prism), staged, hashed, sealed, renamed (the
// commit, before its point) and committed (after it).
// WORDVEIL_BEAM_STALL_AT instead makes the process wait there for a
// minute, for a test to interrupt it.
var crashAt, stallAt = os.Getenv("WORDVEIL_BEAM_CRASH_AT"), os.Getenv("WORDVEIL_BEAM_STALL_AT")

func crashPoint(name string) {
	if stallAt != "" && stallAt == name {
		time.Sleep(time.Minute)
	}
	if crashAt == "" || crashAt != name {
		return
	}
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Kill()
		select {} // the signal is on its way
	}
}
