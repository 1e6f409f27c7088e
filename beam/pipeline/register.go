package pipeline

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// Every DoFn, element type, emitter and iterator is registered, so that
// any runner's workers (which run this binary again) can find them, and
// without reflection on the hot path.
func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(Record), error](&readFn{})
	register.DoFn3x1[Record, func(string, Ref), func(string, Record), error](&costFn{})
	register.DoFn5x1[context.Context, string, func(*Ref) bool, func(string, Decision), func(int, OutLine), error](&decideFn{})
	register.DoFn5x1[context.Context, string, func(*Record) bool, func(*Decision) bool, func(int, OutLine), error](&privatizeFn{})
	register.DoFn3x1[context.Context, int, func(*OutLine) bool, error](&writeFn{})
	register.Emitter1[Record]()
	register.Emitter2[string, Ref]()
	register.Emitter2[string, Record]()
	register.Emitter2[string, Decision]()
	register.Emitter2[int, OutLine]()
	register.Iter1[Ref]()
	register.Iter1[Record]()
	register.Iter1[Decision]()
	register.Iter1[OutLine]()
}
