package pipeline

import (
	"bufio"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"path"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// outLine is one line of an output file, with what orders it there: its
// JSON, or a record's output (Rec, Status set), which the writer encodes
// (appendRecordJSON): the shuffle to the writers then carries a record's
// user and source once, not again in its JSON, and no JSON keys.
type outLine struct {
	User   string
	Source string
	Line   int64
	JSON   string     // the line, when Rec.Status is noRecord
	Rec    recordLine // a record's line, when Rec.Status is set
}

// lineBatch is what crosses the shuffle to the writers: some lines of one
// output file. privatizeFn emits one per shard per batch of records it
// privatizes, decideFn one per user's summary and state line, so that the
// runner handles a few large elements rather than one per record.
type lineBatch struct {
	Lines []outLine
}

// shardOf is the output file a user's lines go to: every line of a user
// is in one file of each kind.
func shardOf(user string, shards int) int {
	h := fnv.New64a()
	h.Write([]byte(user))
	return int(h.Sum64() % uint64(shards))
}

// The output files' names: records-00003-of-00008.jsonl and
// budget-00003-of-00008.jsonl. A shard no user hashes to has no file.
const (
	recordsPrefix = "records"
	budgetPrefix  = "budget"
)

func shardName(prefix string, shard, shards int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, shard, shards)
}

// writeFn writes one shard's lines, sorted by (user, source, line), so
// that a file's bytes depend on the input and the seed only, not on the
// runner's scheduling. It holds the shard in memory to sort it: Shards
// sets how large that is (the output's size over Shards). It emits the
// shard and its line count once the file is in place (see build).
type writeFn struct {
	Dir    string
	Prefix string
	Shards int
}

func (fn *writeFn) ProcessElement(ctx context.Context, shard int, batches func(*lineBatch) bool, written func(int, int)) error {
	// The lines are sorted by pointer: an outLine is some 120 bytes.
	var all []*outLine
	var b lineBatch
	for batches(&b) {
		// Each batch decodes into a slice of its own, which the
		// pointers keep.
		for i := range b.Lines {
			all = append(all, &b.Lines[i])
		}
	}
	slices.SortFunc(all, func(a, b *outLine) int {
		if c := strings.Compare(a.User, b.User); c != 0 {
			return c
		}
		if c := strings.Compare(a.Source, b.Source); c != 0 {
			return c
		}
		return cmp.Compare(a.Line, b.Line)
	})
	name := joinPath(fn.Dir, shardName(fn.Prefix, shard, fn.Shards))
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return fmt.Errorf("wordveil-beam: %s: %w", name, err)
	}
	defer fs.Close()
	// Where the file system can rename, the file is written under a
	// temporary name and renamed when complete: a retried or concurrent
	// attempt never leaves a file cut short or interleaved under the
	// final name.
	target := name
	rn, atomic := fs.(filesystem.Renamer)
	if atomic {
		var suffix [8]byte
		if _, err := rand.Read(suffix[:]); err != nil {
			return err
		}
		target = name + ".tmp-" + hex.EncodeToString(suffix[:])
	}
	if err := writeLines(ctx, fs, target, all); err != nil {
		if rm, ok := fs.(filesystem.Remover); ok && atomic {
			rm.Remove(ctx, target)
		}
		return err
	}
	if atomic {
		if err := rn.Rename(ctx, target, name); err != nil {
			return fmt.Errorf("wordveil-beam: renaming %s to %s: %w", target, name, err)
		}
	}
	crashPoint("written")
	written(shard, len(all))
	return nil
}

// writeLines writes lines to the file name, one JSON line each.
func writeLines(ctx context.Context, fs filesystem.Interface, name string, lines []*outLine) error {
	wc, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return fmt.Errorf("wordveil-beam: creating %s: %w", name, err)
	}
	w := bufio.NewWriterSize(wc, 1<<20)
	var buf []byte
	for _, l := range lines {
		if l.Rec.Status == noRecord {
			w.WriteString(l.JSON)
		} else {
			buf = appendRecordJSON(buf[:0], l)
			w.Write(buf)
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		wc.Close()
		return fmt.Errorf("wordveil-beam: writing %s: %w", name, err)
	}
	if err := wc.Close(); err != nil {
		return fmt.Errorf("wordveil-beam: closing %s: %w", name, err)
	}
	return nil
}

// joinPath joins a directory and a file name, for local paths and URLs
// (gs://bucket/dir) alike.
func joinPath(dir, name string) string {
	if strings.Contains(dir, "://") {
		return strings.TrimSuffix(dir, "/") + "/" + name
	}
	return path.Join(dir, name)
}
