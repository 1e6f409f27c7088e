package mobile

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportGraph keeps the research code out of the mobile binding: the
// float-vector mechanisms, the evaluation and their dependencies (gonum,
// plotting) would only add size to the AAR and the XCFramework.
func TestImportGraph(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list returned %d packages: %q", len(deps), out)
	}
	banned := []string{
		"github.com/wordveil/wordveil/research/", // the research module, whole
		"gonum.org/",
	}
	for _, d := range deps {
		for _, b := range banned {
			if strings.HasPrefix(d, b) {
				t.Errorf("the mobile package depends on %s", d)
			}
		}
	}
}
