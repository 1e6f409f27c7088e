// Package binaryembed is a read-only view of a WordVeil embedding asset
// (.wva): a vocabulary of words, each with a 256-bit binary code (a
// [hamming.Code], the one code type of the module), the word lookup, the
// precomputed 1-Diffractor lists and the asset's default exclusion list.
//
//	e, err := binaryembed.Default()          // the embedded English asset (package assets)
//	id, ok := e.Lookup("keyboard")
//	code, _ := e.Code(id)
//	x, err := e.Index()                      // exact search over every word's code
//	n, err := x.Nearest(code, nil)
//
// The asset format is docs/ASSET_FORMAT.md; the embedded asset and how it
// is built, assets/README.md. Assets are built by the research module's
// builder (`wordveil-research assets build`).
//
// # Guarantees
//
//   - Verified before use. Default, Open and Decode check every section
//     against its CRC-32C and every rule of the format (counts and
//     lengths, ids in range, words unique and valid UTF-8, each list a
//     permutation) before returning; bytes that are not a valid asset
//     (not an asset, an unknown version, truncated, altered or malformed)
//     give an error wrapping [ErrCorrupt], never a panic. Open reads at
//     most 256 MiB, and only from a regular file ([ErrNotFile] otherwise),
//     and decoding allocates at most 40 MiB whatever the file declares.
//   - Read-only and shared. An Embedding never changes after it is made
//     and is safe for concurrent use. What it returns (Codes, Lists' ids,
//     Word's strings) shares its memory, which for Default is read-only
//     program data: callers must not modify it.
//   - No panics on nil or zero values: a nil or zero *Embedding behaves as
//     an empty one (Len 0, every lookup false, an empty Index).
//
// # What it does not do
//
// It does not build or write assets, binarize float vectors, or expose
// the engine's other sections (TEM lists, CusText sets, stand-ins,
// presets): those serve the SDK's mechanisms (package core). Lookup
// matches bytes exactly: callers normalize case and form first.
package binaryembed

import (
	"errors"
	"fmt"
	"sync"

	"github.com/wordveil/wordveil/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

var (
	// ErrCorrupt is wrapped by every error about the bytes of an asset:
	// not an asset, a format version this package does not read,
	// truncated, failing a checksum, or breaking a rule of the format.
	ErrCorrupt = errors.New("binaryembed: not a valid asset")
	// ErrNotFile is wrapped by Open's error when the path is not a
	// regular file (a directory, device or pipe), or is larger than
	// 256 MiB, or grows while it is read. Errors from the file system
	// itself (a missing file: fs.ErrNotExist) are returned wrapped as
	// they are.
	ErrNotFile = errors.New("binaryembed: not a regular file within the size limit")
)

// Embedding is a read-only view of a decoded asset. Make one with
// Default, Open or Decode.
type Embedding struct {
	a *wva.Asset
	// The index over the codes, made on the first Index call.
	once  sync.Once
	index *hamming.Index
	err   error
}

// decodeOptions: the view reads the words, codes, lists and header only,
// so the TEM lists and float vectors are checked but not built.
var decodeOptions = wva.DecodeOptions{SkipTEM: true, SkipFloats: true}

var defaultEmbedding = sync.OnceValues(func() (*Embedding, error) {
	a, err := wva.Default()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return &Embedding{a: a}, nil
})

// Default returns the embedded default English asset (package assets:
// 50,000 words, two 1-Diffractor lists). It is decoded and verified on
// the first call, once per process, and shared afterwards, by every
// caller and by the SDK's privatizers; so is the Index it makes. It uses
// the embedded bytes in place and holds the asset's TEM lists too (about
// 3 MB of heap), which the SDK's TEM mechanism reads.
func Default() (*Embedding, error) { return defaultEmbedding() }

// Open reads and decodes the asset file at path. See Decode; the file is
// read whole, at most 256 MiB, and only if it is a regular file.
func Open(path string) (*Embedding, error) {
	b, err := wva.ReadFile(path)
	switch {
	case errors.Is(err, wva.ErrNotRegular), errors.Is(err, wva.ErrFileTooLarge):
		return nil, fmt.Errorf("%w: %w", ErrNotFile, err)
	case errors.Is(err, wva.ErrTruncated): // the file shrank while it was read
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	case err != nil:
		return nil, err
	}
	opt := decodeOptions
	opt.InPlace = true // b is this function's own buffer, never modified
	a, err := wva.DecodeWith(b, opt)
	if err != nil {
		return nil, fmt.Errorf("%w: %w (file %s)", ErrCorrupt, err, path)
	}
	return &Embedding{a: a}, nil
}

// Decode decodes and verifies an asset file's bytes. The Embedding keeps
// no reference to b. Bytes that are not a valid asset give an error
// wrapping ErrCorrupt, never a panic.
func Decode(b []byte) (*Embedding, error) {
	a, err := wva.DecodeWith(b, decodeOptions)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return &Embedding{a: a}, nil
}

// asset returns e's asset, or nil for a nil or zero Embedding.
func (e *Embedding) asset() *wva.Asset {
	if e == nil {
		return nil
	}
	return e.a
}

// Len returns the number of words (ids are 0 to Len()−1, id 0 the most
// frequent in the default asset).
func (e *Embedding) Len() int {
	if a := e.asset(); a != nil {
		return a.Len()
	}
	return 0
}

// Word returns the word of id, and false (with "") for an id outside
// [0, Len()). No word is empty.
func (e *Embedding) Word(id int) (string, bool) {
	if id < 0 || id >= e.Len() {
		return "", false
	}
	return e.a.Word(id), true
}

// Words returns the vocabulary in id order, in a new slice (the strings
// share the asset's memory); nil for a nil or zero Embedding.
func (e *Embedding) Words() []string {
	if a := e.asset(); a != nil {
		return a.WordList()
	}
	return nil
}

// Code returns the 256-bit code of word id, and false (with the zero
// code) for an id outside [0, Len()).
func (e *Embedding) Code(id int) (hamming.Code, bool) {
	if id < 0 || id >= e.Len() {
		return hamming.Code{}, false
	}
	return e.a.Codes[id], true
}

// Codes returns every word's code, indexed by id: the asset's own array,
// not a copy (for Default, read-only program memory). Callers must not
// modify it.
func (e *Embedding) Codes() []hamming.Code {
	if a := e.asset(); a != nil {
		return a.Codes
	}
	return nil
}

// Lookup returns the id of word, matching its bytes exactly (a binary
// search over the vocabulary: no allocation, at most ⌈log2 N⌉+1
// comparisons).
func (e *Embedding) Lookup(word string) (id int, ok bool) {
	if a := e.asset(); a != nil {
		return a.Lookup(word)
	}
	return 0, false
}

// Lists returns the asset's precomputed 1-Diffractor lists (none, one or
// more): each an ordering of every id, a greedy nearest-neighbour chain
// over the codes (from a random start, each step to the nearest code not
// yet placed, exact, ties broken uniformly at random), so that words near
// each other in a list have near codes. 1-Diffractor privatizes a word by
// a random step along such a list. The outer slice is new; the lists are
// the asset's own (read-only) memory.
func (e *Embedding) Lists() [][]uint32 {
	a := e.asset()
	if a == nil || len(a.Lists) == 0 {
		return nil
	}
	out := make([][]uint32, len(a.Lists))
	for i, l := range a.Lists {
		out[i] = l.Order
	}
	return out
}

// Excluded returns the ids of the asset's default exclusion list
// (ascending; for the default asset, offensive words and three clitic
// hosts): words an app normally does not want to output. It is a new
// slice, empty when the asset has no list. To search without them:
// x.Without(e.Excluded()).
func (e *Embedding) Excluded() []int {
	a := e.asset()
	if a == nil || a.Header.Excluded == nil {
		return nil
	}
	out := make([]int, len(a.Header.Excluded.IDs))
	for i, id := range a.Header.Excluded.IDs {
		out[i] = int(id)
	}
	return out
}

// Index returns an exact search index over Codes (ids are word ids). It
// is made on the first call and shared by later ones; its multi-index
// tables are built on its first near query (about 9 MB for 50,000
// words). For a nil or zero Embedding it is an empty index.
func (e *Embedding) Index() (*hamming.Index, error) {
	if e == nil {
		return hamming.NewIndex(nil)
	}
	e.once.Do(func() { e.index, e.err = hamming.NewIndex(e.Codes()) })
	return e.index, e.err
}
