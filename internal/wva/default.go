package wva

import (
	"fmt"
	"sync"

	"github.com/wordveil/wordveil/assets"
)

var decodedDefault = sync.OnceValues(func() (*Asset, error) {
	a, err := DecodeDefault(DecodeOptions{InPlace: true}) // read-only program data: used where it lies
	if err != nil {
		return nil, fmt.Errorf("load embedded asset %s: %w", assets.DefaultName, err)
	}
	return a, nil
})

// Default returns the embedded default asset (package assets), decoded.
// It is decoded on the first call (its structure proven at test time and
// trusted through its checksum: DecodeDefault) and shared afterwards; callers must
// treat it as read-only. Its sections are used in place, except the TEM
// lists, which are built in memory (about 3 MB and 20 ms): a privatizer
// for any other mechanism opens the asset without them (package core's
// slimDefault).
func Default() (*Asset, error) { return decodedDefault() }
