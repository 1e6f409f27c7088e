package privatize

import (
	"context"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/mechanism"
)

// respondBatch privatizes ids in place with a mechanism that releases
// several words at once (mechanism.Batcher: BRR searches a run of words
// in one pass over its codes), cancelEvery words per call, ctx checked
// between calls. Each word still gets fresh noise; the values drawn from
// src come in another order than a loop over Privatize's (see
// mechanism.Batcher), with the same law.
func respondBatch(ctx context.Context, b mechanism.Batcher, ids []int32, src rand.Source) error {
	for lo := 0; lo < len(ids); lo += cancelEvery {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := b.PrivatizeBatch(ids[lo:min(len(ids), lo+cancelEvery)], src); err != nil {
			return err // the mechanism's error names it
		}
	}
	return nil
}
