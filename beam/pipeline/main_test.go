package pipeline

import (
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// TestMain initializes Beam, as a program's main must before it runs a
// pipeline: Prism's workers run in this process (loopback). Prism's log
// (every job step at INFO) is dropped, as the command drops it, unless
// WORDVEIL_BEAM_LOG=1: a failed run's cause is in Run's error.
func TestMain(m *testing.M) {
	beam.Init()
	if os.Getenv("WORDVEIL_BEAM_LOG") != "1" {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(m.Run())
}
