package tokenize

import (
	"fmt"
	"testing"
)

// maxWorkPerByte bounds the bytes the Scanner may examine per input byte.
// Each byte is decoded a few times (token, chunk, trailing trim, '@'
// search, the rune after a run, joiner neighbours, URL prefix check), so
// the measured maximum is a small constant; a path that rescans the rest
// of the text from each token start examines about len/2 bytes per byte.
const maxWorkPerByte = 16

// scanWork tokenizes s with a Scanner and returns the bytes it examined
// and the tokens' total length.
func scanWork(s string) (work, covered int) {
	var sc Scanner
	sc.Reset(s)
	for {
		t, ok := sc.Next()
		if !ok {
			return sc.work, covered
		}
		covered += len(t.Text)
	}
}

func TestWorkPerByteBounded(t *testing.T) {
	sizes := []int{1 << 10, 10 << 10, 100 << 10, 1 << 20}
	if testing.Short() {
		sizes = sizes[:3] // a quadratic path breaks the bound at 4 kB already (TestWorkBoundCatchesQuadratic)
	}
	for _, sh := range adversarialShapes {
		for _, n := range sizes {
			t.Run(fmt.Sprintf("%s/%d", sh.Name, n), func(t *testing.T) {
				s := shapeText(sh.Unit, n)
				work, covered := scanWork(s)
				if covered != n {
					t.Fatalf("tokens cover %d bytes of %d", covered, n)
				}
				if work > maxWorkPerByte*n {
					t.Fatalf("examined %d bytes for %d (%.1f per byte), bound %d per byte",
						work, n, float64(work)/float64(n), maxWorkPerByte)
				}
				if n == sizes[len(sizes)-1] {
					t.Logf("%.2f bytes examined per byte", float64(work)/float64(n))
				}
				if work < n {
					t.Fatalf("counted %d bytes examined for %d: the counter misses work", work, n)
				}
			})
		}
	}
}

// TestWorkBoundCatchesQuadratic is the negative control: the old
// stateless e-mail/URL test, counted the same way, breaks the bound on a
// text without delimiters already at 4 kB, so the bound above would catch
// a quadratic path coming back.
func TestWorkBoundCatchesQuadratic(t *testing.T) {
	for _, unit := range []string{"a.", "🙂", "\x00"} {
		s := shapeText(unit, 4<<10)
		oracleWork = 0
		oracleTokenize(s)
		if oracleWork <= maxWorkPerByte*len(s) {
			t.Errorf("%q: old tokenizer examined %d bytes for %d, within the bound: the bound cannot catch a quadratic path",
				unit, oracleWork, len(s))
		}
		if w, _ := scanWork(s); w > maxWorkPerByte*len(s) {
			t.Errorf("%q: Scanner examined %d bytes for %d", unit, w, len(s))
		}
	}
}
