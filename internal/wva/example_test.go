package wva_test

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/assets"
	"github.com/wordveil/wordveil/internal/wva"
)

// Decoding the embedded asset: Decode validates every section before
// returning, and Inspect reads the section table without decoding.
func ExampleDecode() {
	b := assets.DefaultBytes()
	a, err := wva.Decode(b)
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Header.Name, a.Len(), "words,", len(a.Lists), "lists")
	in, err := wva.Inspect(b)
	if err != nil {
		panic(err)
	}
	for _, s := range in.Sections {
		fmt.Printf("%-8s %9d bytes, %9d stored\n", s.Kind, s.Raw, s.Stored)
	}
	// Output:
	// en-glove100-50k 50000 words, 2 lists
	// VOCAB       762069 bytes,    762069 stored
	// CODES      1600000 bytes,   1600000 stored
	// LISTS       400008 bytes,    400008 stored
	// TEMLISTS   1409275 bytes,   1409275 stored
	// CUSTEXT     100016 bytes,    100016 stored
	// STANDINS    715337 bytes,    715337 stored
}

// ReadFile refuses, before reading, anything but a regular file; a missing
// path is the os error, wrapped once.
func ExampleReadFile() {
	_, err := wva.ReadFile(filepath.Join("testdata", "no-such-asset.wva"))
	fmt.Println(errors.Is(err, fs.ErrNotExist), strings.HasPrefix(err.Error(), "wva: read file: "))
	_, err = wva.ReadFile(".") // a directory
	fmt.Println(errors.Is(err, wva.ErrNotRegular))
	// Output:
	// true true
	// true
}
