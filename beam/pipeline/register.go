package pipeline

import (
	"context"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// Every DoFn, element type, emitter and iterator is registered, so that
// any runner's workers (which run this binary again) can find them, and
// without reflection on the hot path.
func init() {
	register.DoFn4x1[context.Context, fileio.ReadableFile, func(string, grants), func(string, slotBatch), error](&readFn{})
	register.DoFn7x1[context.Context, string, func(*grants) bool, func(*spending) bool, func(string, slotBatch), func(int, lineBatch), func(int, lineBatch), error](&decideFn{})
	register.DoFn3x1[context.Context, stateShard, func(string, spending), error](&readStateFn{})
	register.DoFn5x1[context.Context, string, func(*slotBatch) bool, func(int, int), func(string, segmentBits), error](&privatizeFn{})
	register.DoFn4x1[context.Context, string, func(*segmentBits) bool, func(int, int), error](&seqRereadFn{})
	register.Emitter2[string, segmentBits]()
	register.Iter1[segmentBits]()
	register.DoFn4x1[context.Context, int, func(*lineBatch) bool, func(int, int), error](&writeFn{})
	register.DoFn2x0[int, func(*int) bool](&writtenFn{})
	register.Emitter2[int, int]()
	register.Iter1[int]()
	register.Emitter2[string, grants]()
	register.Emitter2[string, slotBatch]()
	register.Emitter2[int, lineBatch]()
	register.Emitter2[string, spending]()
	register.Iter1[grants]()
	register.Combiner3[grants, grants, grants](&grantFn{})
	register.Iter1[slotBatch]()
	register.Iter1[lineBatch]()
	beam.RegisterCoder(reflect.TypeOf(lineBatch{}), encodeLineBatch, decodeLineBatch)
	beam.RegisterCoder(reflect.TypeOf(grants{}), encodeGrants, decodeGrants)
	beam.RegisterCoder(reflect.TypeOf(slotBatch{}), encodeSlotBatch, decodeSlotBatch)
	beam.RegisterCoder(reflect.TypeOf(segmentBits{}), encodeSegmentBits, decodeSegmentBits)
	register.Iter1[spending]()
}
