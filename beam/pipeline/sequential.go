package pipeline

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
)

// The re-read of a file that cannot seek. A compressed file (fileio
// decompresses a .gz) and a file on a remote file system (Beam's gcs and
// s3 file systems return readers that cannot seek) can only be read from
// their start: re-read per segment, segment k would cost k MiB read, and
// the file's re-read would grow with the square of its size. Such a file
// is re-read once, sequentially, by one worker (seqRereadFn), whatever its
// size: the file read twice in all (once by readFn, once here). What that
// worker holds is one bit per record of the file (granted or not), a
// segmentBits of about 100 bytes per 1 MiB segment and the records of the
// segment it is checking (about 1 MiB of text): never a slot per record.
//
// readFn marks such a file's segments (slot.Seq) and puts in each marker
// the digest of the segment's records (recordDigest: each record's lineSum,
// offset and line number, in order). privatizeFn turns each such segment's
// group (its marker and its granted slots) into a segmentBits keyed by the
// file; seqRereadFn gets a file's, reads the file line by line, finds each
// segment's records again, and checks, before any of a segment's records
// is privatized, that they are the ones read first (the digest), that the
// charges it works out again for the granted ones are the ones decideFn
// charged (the grants' digest) and that no segment is missing or extra.
// Any difference fails the run: the input changed during it.

// recordDigest is a SHA-256 over a segment's records in order, cut to 16
// bytes like a lineSum: record hashes each record's lineSum, offset and
// line number (what the seekable re-read checks per record); grant hashes
// a granted record's place in its segment, user, words and charge (its
// float64 bits), what decideFn charged it. sum returns the digest and
// starts the next.
type recordDigest struct {
	h   hash.Hash
	buf []byte
}

func newRecordDigest() *recordDigest { return &recordDigest{h: sha256.New()} }

func (d *recordDigest) record(sum lineChecksum, offset, line int64) {
	d.buf = append(d.buf[:0], sum[:]...)
	d.buf = binary.LittleEndian.AppendUint64(d.buf, uint64(offset))
	d.buf = binary.LittleEndian.AppendUint64(d.buf, uint64(line))
	d.h.Write(d.buf)
}

func (d *recordDigest) grant(index int, user string, words int, cost float64) {
	d.buf = binary.LittleEndian.AppendUint64(d.buf[:0], uint64(index))
	d.buf = binary.LittleEndian.AppendUint64(d.buf, uint64(len(user))) // the user's length first: no two (user, words) share bytes
	d.buf = append(d.buf, user...)
	d.buf = binary.LittleEndian.AppendUint64(d.buf, uint64(words))
	d.buf = binary.LittleEndian.AppendUint64(d.buf, math.Float64bits(cost))
	d.h.Write(d.buf)
	if cap(d.buf) > lineBuf { // one long user key must not keep its copy
		d.buf = nil
	}
}

func (d *recordDigest) sum() lineChecksum {
	var full [sha256.Size]byte
	d.h.Sum(full[:0])
	d.h.Reset()
	return lineChecksum(full[:16])
}

// segmentBits is one segment of a file that cannot seek, as the
// sequential re-read needs it: readFn's marker (the Line and Offset of
// its first record, the End of its last record's line, how many Records,
// the Digest of them), one bit per record in file order (Bits: record i
// is granted when bit i%8 of Bits[i/8] is set) and the digest of the
// granted records' charges (Grants). It crosses the shuffle keyed by the
// file.
type segmentBits struct {
	Line, Offset, End int64
	Records           int
	Digest, Grants    lineChecksum
	Bits              []byte
}

func (b *segmentBits) granted(i int) bool { return b.Bits[i/8]&(1<<(i%8)) != 0 }

// segmentOf builds the segmentBits of a sequential segment from its marker
// and granted slots (sorted here by their place). A granted slot that is
// not a record of the segment, or granted twice, is a fault of the runner
// or of this code: the run fails.
func segmentOf(marker slot, granted []slot) (segmentBits, error) {
	if marker.Records < 1 || marker.Records > segmentBytes || marker.End <= marker.Offset {
		return segmentBits{}, fmt.Errorf("wordveil-beam: %s: a segment marker with %d records from byte %d to %d", marker.Source, marker.Records, marker.Offset, marker.End)
	}
	b := segmentBits{Line: marker.Line, Offset: marker.Offset, End: marker.End, Records: marker.Records, Digest: marker.Sum,
		Bits: make([]byte, (marker.Records+7)/8)}
	slices.SortFunc(granted, func(a, b slot) int { return cmp.Compare(a.Index, b.Index) })
	d := newRecordDigest()
	for k, g := range granted {
		if g.Index < 0 || g.Index >= marker.Records || k > 0 && g.Index == granted[k-1].Index ||
			g.Offset < marker.Offset || g.Offset >= marker.End || g.Line < marker.Line {
			return segmentBits{}, fmt.Errorf("wordveil-beam: %s line %d: a grant that is not a record of its segment (record %d of %d)", marker.Source, g.Line, g.Index, marker.Records)
		}
		b.Bits[g.Index/8] |= 1 << (g.Index % 8)
		d.grant(g.Index, g.User, g.Words, g.Cost)
	}
	b.Grants = d.sum()
	return b, nil
}

// seqRereadFn re-reads one file that cannot seek, once, from its start,
// and privatizes its granted records with P (privatizeFn's batches,
// engines and checks: the same outputs, and with Seed the same seeded
// streams, as the seekable re-read). It holds the file's segmentBits, one
// bit per record, and at most one segment's records (some 1 MiB of text,
// plus a line), which it privatizes only once the segment is checked. It
// reads to the file's end, so that a segment missing, or a record added
// anywhere, fails the run; a file with nothing granted and no
// placeholders to write is not read again.
type seqRereadFn struct {
	P privatizeFn

	pending []job // the segment being read: privatized once it is checked
}

func (fn *seqRereadFn) Setup() error    { return fn.P.Setup() }
func (fn *seqRereadFn) Teardown() error { return fn.P.Teardown() }

func (fn *seqRereadFn) ProcessElement(ctx context.Context, path string, elems func(*segmentBits) bool, written func(int, int)) (err error) {
	var segs []segmentBits
	for b := (segmentBits{}); elems(&b); {
		segs = append(segs, b)
	}
	slices.SortFunc(segs, func(a, b segmentBits) int { return cmp.Compare(a.Offset, b.Offset) })
	placeholders := fn.P.OverCap == OverCapPlaceholder
	needed := placeholders // some record is to be written
	for i := range segs {
		s := &segs[i]
		switch {
		case s.Records < 1 || len(s.Bits) != (s.Records+7)/8 || s.Offset < 0 || s.End <= s.Offset:
			return fmt.Errorf("wordveil-beam: %s: a malformed segment (%d records, %d bytes of bits, bytes %d to %d)", path, s.Records, len(s.Bits), s.Offset, s.End)
		case i > 0 && s.Offset/segmentBytes == segs[i-1].Offset/segmentBytes:
			return fmt.Errorf("wordveil-beam: %s: segment %d twice", path, s.Offset/segmentBytes)
		}
		needed = needed || slices.ContainsFunc(s.Bits, func(b byte) bool { return b != 0 })
	}
	if !needed {
		return nil // nothing granted, nothing to write
	}
	rc, err := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path}}.Open(ctx)
	if err != nil {
		return fmt.Errorf("wordveil-beam: opening %s again: %w", path, err)
	}
	defer func() {
		if cerr := rc.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("wordveil-beam: closing %s: %w", path, cerr)
		}
	}()
	var out segmentOut // segs[cur]'s records file
	defer func() {
		clear(fn.pending) // the texts go with the segment
		fn.pending = fn.pending[:0]
		if err != nil {
			fn.P.drop()
			out.abort(ctx)
		}
	}()
	r := newLineReader(rc, fn.P.MaxRecordBytes)
	p := fn.P.ps[0] // the batches' engines are idle between flushes
	records, grants := newRecordDigest(), newRecordDigest()
	cur, seen := 0, 0       // segs[cur] is being read; seen of its records so far
	var end, lastLine int64 // the end of its last record's line, and its number
	// done checks segs[cur], read to its end, and privatizes its records.
	// The digests name no line: the error names the segment's.
	done := func() error {
		s := &segs[cur]
		switch {
		case seen != s.Records:
			return changedLines(path, s.Line, max(s.Line, lastLine), fmt.Sprintf("%d records in the segment, %d when first read", seen, s.Records))
		case records.sum() != s.Digest || end != s.End:
			return changedLines(path, s.Line, lastLine, "a record of the segment differs")
		case grants.sum() != s.Grants:
			return changedLines(path, s.Line, lastLine, "a granted record's charge differs")
		}
		out = newSegmentOut(fn.P.Dir, path, s.Offset)
		for _, j := range fn.pending {
			if err := fn.P.add(ctx, j, &out); err != nil {
				return err
			}
		}
		if err := fn.P.finish(ctx, &out, written); err != nil {
			return err
		}
		clear(fn.pending)
		fn.pending = fn.pending[:0]
		cur, seen = cur+1, 0
		return nil
	}
	for n := int64(1); ; n++ {
		start := r.off
		l, err := r.readLine()
		switch {
		case errors.Is(err, errLineTooLong):
			if err := r.skipLine(); err != nil {
				return changed(path, n, err.Error())
			}
			continue // malformed: counted by readFn
		case err != nil && err != io.EOF:
			return changed(path, n, err.Error())
		}
		l = trimEOL(l)
		if user, text, ok, perr := parseLine(fn.P.Format, l); perr == nil && ok {
			for cur < len(segs) && start/segmentBytes > segs[cur].Offset/segmentBytes {
				if err := done(); err != nil {
					return err
				}
			}
			switch {
			case cur == len(segs) || start/segmentBytes != segs[cur].Offset/segmentBytes:
				return changed(path, n, "a record where none was when first read")
			case seen == segs[cur].Records:
				return changed(path, n, "more records in its segment than when first read")
			}
			s := &segs[cur]
			records.record(lineSum(l), start, n)
			end, lastLine = r.off, n
			rec := record{User: user, Source: path, Line: n}
			if s.granted(seen) {
				words, cost, err := charge(p, text)
				if err != nil {
					return fmt.Errorf("wordveil-beam: %s line %d: %w", path, n, err)
				}
				grants.grant(seen, user, words, cost)
				rec.Text = text
				fn.pending = append(fn.pending, job{r: rec, granted: true, want: slot{User: user, Words: words, Cost: cost}})
			} else if placeholders {
				fn.pending = append(fn.pending, job{r: rec})
			}
			seen++
		}
		if err == io.EOF {
			break
		}
	}
	for cur < len(segs) {
		if err := done(); err != nil {
			return err
		}
	}
	return nil
}

// changed is the error of a re-read that did not find what was read
// first: the input changed during the run.
func changed(path string, line int64, why string) error {
	return fmt.Errorf("wordveil-beam: %s line %d changed during the run (%s): the input must not change until the run ends", path, line, why)
}

// changedLines is changed for a segment, lines first to last.
func changedLines(path string, first, last int64, why string) error {
	return fmt.Errorf("wordveil-beam: %s lines %d-%d changed during the run (%s): the input must not change until the run ends", path, first, last, why)
}
