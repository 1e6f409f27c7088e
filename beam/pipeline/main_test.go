package pipeline

import (
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// TestMain initializes Beam, as a program's main must before it runs a
// pipeline: Prism's workers run in this process (loopback).
func TestMain(m *testing.M) {
	beam.Init()
	os.Exit(m.Run())
}
