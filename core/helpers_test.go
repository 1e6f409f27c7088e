package core_test

import (
	"log"
	"os"
)

// tempDir makes a directory for an example's state and returns a function
// that removes it.
func tempDir() (string, func()) {
	dir, err := os.MkdirTemp("", "wordveil-example-")
	if err != nil {
		log.Fatal(err)
	}
	return dir, func() { os.RemoveAll(dir) }
}
