package pipeline

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// outLine is one line of a budget or state file: its user, which orders
// it there, and its JSON.
type outLine struct {
	User string
	JSON string
}

// lineBatch is what crosses the shuffle to the writers of the budget and
// state files: some lines of one file (decideFn emits one per user's
// summary and state line).
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

// The names of the budget files, budget-00003-of-00008.jsonl, and of the
// records files, records-<file>-<segment>.jsonl (records.go). A shard no
// user hashes to has no file.
const (
	recordsPrefix = "records"
	budgetPrefix  = "budget"
)

func shardName(prefix string, shard, shards int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, shard, shards)
}

// writeFn writes one shard's lines (the budget's, or the state's), sorted
// by user, so that a file's bytes depend on the input and the seed only,
// not on the runner's scheduling. It holds the shard in memory to sort it:
// a line per user, over Shards. It emits the shard and its line count
// once the file is in place (see build).
type writeFn struct {
	Dir    string
	Prefix string
	Shards int
}

func (fn *writeFn) ProcessElement(ctx context.Context, shard int, batches func(*lineBatch) bool, written func(int, int)) error {
	var all []outLine
	for b := (lineBatch{}); batches(&b); {
		all = append(all, b.Lines...)
	}
	slices.SortFunc(all, func(a, b outLine) int { return strings.Compare(a.User, b.User) })
	f, err := createStaged(ctx, joinPath(fn.Dir, shardName(fn.Prefix, shard, fn.Shards)))
	if err != nil {
		return err
	}
	for _, l := range all {
		f.w.WriteString(l.JSON)
		f.w.WriteByte('\n')
	}
	if err := f.commit(ctx); err != nil {
		return err
	}
	crashPoint("written")
	written(shard, len(all))
	return nil
}

// stagedFile is an output file being written. Where the file system can
// rename, it is written under a temporary name and renamed when complete
// (commit): a retried or concurrent attempt never leaves a file cut short
// or interleaved under the final name, and the last attempt to finish is
// the file's whole content. abort removes the temporary file.
type stagedFile struct {
	fs           filesystem.Interface
	name, target string
	wc           io.WriteCloser
	w            *bufio.Writer
}

// stagedBuffer is a staged file's write buffer.
const stagedBuffer = 256 << 10

func createStaged(ctx context.Context, name string) (*stagedFile, error) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("wordveil-beam: %s: %w", name, err)
	}
	f := &stagedFile{fs: fs, name: name, target: name}
	if _, ok := fs.(filesystem.Renamer); ok {
		var suffix [8]byte
		if _, err := rand.Read(suffix[:]); err != nil {
			fs.Close()
			return nil, err
		}
		f.target = name + ".tmp-" + hex.EncodeToString(suffix[:])
	}
	if f.wc, err = fs.OpenWrite(ctx, f.target); err != nil {
		fs.Close()
		return nil, fmt.Errorf("wordveil-beam: creating %s: %w", f.target, err)
	}
	f.w = bufio.NewWriterSize(f.wc, stagedBuffer)
	return f, nil
}

// commit completes the file and puts it in place under its name; on an
// error it removes what it wrote.
func (f *stagedFile) commit(ctx context.Context) error {
	defer f.fs.Close()
	err := f.w.Flush()
	if cerr := f.wc.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		f.remove(ctx)
		return fmt.Errorf("wordveil-beam: writing %s: %w", f.target, err)
	}
	if f.target != f.name {
		if err := f.fs.(filesystem.Renamer).Rename(ctx, f.target, f.name); err != nil {
			f.remove(ctx)
			return fmt.Errorf("wordveil-beam: renaming %s to %s: %w", f.target, f.name, err)
		}
	}
	return nil
}

// abort drops the file: nothing is left under its name or its temporary
// one (where the file system can remove).
func (f *stagedFile) abort(ctx context.Context) {
	f.wc.Close()
	f.remove(ctx)
	f.fs.Close()
}

func (f *stagedFile) remove(ctx context.Context) {
	if rm, ok := f.fs.(filesystem.Remover); ok && f.target != f.name {
		rm.Remove(ctx, f.target)
	}
}

// joinPath joins a directory and a file name, for local paths and URLs
// (gs://bucket/dir) alike.
func joinPath(dir, name string) string {
	if strings.Contains(dir, "://") {
		return strings.TrimSuffix(dir, "/") + "/" + name
	}
	return path.Join(dir, name)
}
