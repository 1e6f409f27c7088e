package assetbuild

import (
	"errors"
	"fmt"
	"io"
	"math"
)

// Binarizer names.
const (
	SRP = "srp" // sign of random projections
	NLB = "nlb" // near-lossless binarization (Tissier et al., AAAI 2019)
)

// Config is everything a build depends on besides the source bytes.
type Config struct {
	Name        string // asset name recorded in the header
	Description string

	// Source provenance; Integrity, if set, is checked against the
	// source bytes (npm's "sha512-<base64>" form).
	SourceName, SourceVersion, SourceURL, Integrity string
	LicenceSPDX, LicenceNotice                      string

	Words     int    // vocabulary size: the first Words words the filter keeps
	Binarizer string // SRP or NLB
	Seed      uint64 // master seed; per-stage seeds are derived from it
	Lists     int    // number of 1-Diffractor lists, 0..256
	// TEM neighbour lists: every word within GammaMax, distances rounded up
	// to multiples of TEMStep. GammaMax 0 leaves the section out.
	GammaMax, TEMStep float64
	// TEMPairBudget, if > 0, caps the TEM lists: when more pairs than this
	// lie within GammaMax, the radius is lowered to the largest multiple
	// of TEMStep that keeps them within the budget (the asset's size).
	TEMPairBudget uint64
	Floats        bool // also store the float vectors (research builds)
	// CusTextK, if > 0, stores CusText's output sets: the vocabulary
	// partitioned greedily into groups of CusTextK words by Hamming
	// distance (BuildCusTextSets). 0 (the default recipe) leaves them out.
	CusTextK int
	// TypedText, if set, chooses the vocabulary for typed text and
	// induces vectors for the words the source lacks (see TypedText).
	TypedText *TypedText
	// Presets calibrates the named privacy levels on the built codes and
	// lists and stores them in the header (about 40 s on 2 cores).
	Presets bool
	Workers int // 0 = all cores

	// Progress, if not nil, receives progress lines and bars.
	Progress io.Writer
	// Version is the building tool's version, recorded in the header.
	Version string
}

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("assetbuild: invalid config")

func (c *Config) validate() error {
	switch {
	case c.Words < 1:
		return fmt.Errorf("%w: Words = %d, want ≥ 1", ErrConfig, c.Words)
	case c.Binarizer != SRP && c.Binarizer != NLB:
		return fmt.Errorf("%w: binarizer %q, want %q or %q", ErrConfig, c.Binarizer, SRP, NLB)
	case c.Lists < 0 || c.Lists > 256:
		return fmt.Errorf("%w: Lists = %d, want 0..256", ErrConfig, c.Lists)
	case c.TypedText != nil && c.TypedText.validate(c.Words) != nil:
		return c.TypedText.validate(c.Words)
	case c.CusTextK != 0 && (c.CusTextK < 2 || c.CusTextK > 4096):
		return fmt.Errorf("%w: CusTextK = %d, want 0 (no sets) or 2..4096", ErrConfig, c.CusTextK)
	case c.GammaMax < 0 || math.IsNaN(c.GammaMax) || math.IsInf(c.GammaMax, 0):
		return fmt.Errorf("%w: GammaMax = %v", ErrConfig, c.GammaMax)
	case c.GammaMax > 0 && !(c.TEMStep > 0 && c.TEMStep <= c.GammaMax):
		return fmt.Errorf("%w: TEMStep = %v, want 0 < step ≤ GammaMax", ErrConfig, c.TEMStep)
	}
	return nil
}

// seedFor derives a stage's seed from the master seed (SplitMix64 of the
// seed and a stage constant), so stages never share a random stream.
func seedFor(master uint64, stage uint64) uint64 {
	z := master + stage*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

const (
	stageProjection = 1
	stageLists      = 2
	// stageCalibration seeds the presets' calibration.
	stageCalibration = 3
)
