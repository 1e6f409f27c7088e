package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// The records files. Each segment of an input file (segmentBytes of it)
// that has a record to write (a released one, or with OverCapPlaceholder a
// withheld one) has one records file, written by the DoFn that re-reads
// and privatizes the segment (privatizeFn, or seqRereadFn for a file that
// cannot seek): its records in line order. So the privatized texts never
// cross a shuffle, and a worker holds one batch of a segment's records,
// not a file's worth, whatever the output's size.
//
// A segment's file name is a function of its input file's path and the
// segment's number alone: a retried or repeated attempt at a segment
// writes the same name (stagedFile: whole, by rename), so the run's
// output holds each segment's records once, from one attempt, and never
// the same record in two files.

// recordsName is the records file of the segment of source at offset:
// records-<the first 12 bytes of the SHA-256 of source, in hex>-<the
// segment's number, from 0, at least 6 digits>.jsonl.
func recordsName(source string, offset int64) string {
	h := sha256.Sum256([]byte(source))
	return fmt.Sprintf("%s-%s-%06d.jsonl", recordsPrefix, hex.EncodeToString(h[:12]), offset/segmentBytes)
}

// segmentOut is the records file of the segment being privatized, created
// with its first line.
type segmentOut struct {
	dir, name string
	f         *stagedFile
	lines     int
	buf       []byte
}

func newSegmentOut(dir, source string, offset int64) segmentOut {
	return segmentOut{dir: dir, name: recordsName(source, offset)}
}

// write appends the records line of j.
func (o *segmentOut) write(ctx context.Context, j *job) error {
	if o.f == nil {
		f, err := createStaged(ctx, joinPath(o.dir, stagingPrefix+o.name))
		if err != nil {
			return err
		}
		o.f = f
	}
	o.buf = appendRecordJSON(o.buf[:0], j.r.User, j.r.Source, j.r.Line, &j.out)
	o.buf = append(o.buf, '\n')
	o.lines++
	_, err := o.f.w.Write(o.buf)
	if cap(o.buf) > lineBuf { // a long record's line must not keep its copy
		o.buf = nil
	}
	return err
}

// finish puts the file in place (when it has a line) and returns how many
// lines it has.
func (o *segmentOut) finish(ctx context.Context) (int, error) {
	if o.f == nil {
		return 0, nil
	}
	f := o.f
	o.f = nil
	return o.lines, f.commit(ctx)
}

// abort drops the file.
func (o *segmentOut) abort(ctx context.Context) {
	if o.f != nil {
		o.f.abort(ctx)
		o.f = nil
	}
}
