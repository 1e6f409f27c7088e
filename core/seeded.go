package core

import (
	"fmt"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/seeded"
)

// The evaluation path of internal/seeded: the only way to give a
// Privatizer a source other than crypto/rand.
func init() {
	seeded.Use = func(p any, src rand.Source) error {
		q, ok := p.(*Privatizer)
		if !ok {
			return fmt.Errorf("seeded: want a *core.Privatizer, got %T", p)
		}
		return q.useSource(src)
	}
}
