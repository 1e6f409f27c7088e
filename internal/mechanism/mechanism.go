package mechanism

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/epsrange"
	"github.com/wordveil/wordveil/internal/errwrap"
)

// Mechanism privatizes one word id at a time.
//
// Privatize returns the released word id, drawn with randomness from src
// only. On error it returns -1 and never the input word. Implementations
// are safe for concurrent use with distinct sources.
type Mechanism interface {
	// Privatize releases a word id for input w in [0, Len()), drawn
	// with randomness from src only; on error it returns -1.
	Privatize(w int, src rand.Source) (int, error)
	// Epsilon is the privacy parameter ε of the guarantee ε·d.
	Epsilon() float64
	// Metric names d, e.g. "hamming", "euclidean-quantized(step=0.01)",
	// "max-list-position".
	Metric() string
	// Len is the vocabulary size N: valid inputs are [0, N).
	Len() int
}

// Sentinel errors; test with errors.Is. Returned errors wrap them with
// context.
var (
	// ErrInvalidEpsilon: ε is not a finite number > 0, or outside the
	// mechanism's accepted range (below its floor or above MaxEpsilon;
	// see EpsilonRange). A usage error: the CLI exits 2, the binding
	// returns WV_INVALID_ARGUMENT.
	ErrInvalidEpsilon = errors.New("ε outside the mechanism's accepted range")
	// ErrInvalidTEMOptions: TEM's truncation is invalid: a given γ is not
	// a finite number ≥ 0, β is not in (0, 1), or ε·γ/2 is so large that
	// weights inside the ball would underflow.
	ErrInvalidTEMOptions = errors.New("invalid TEM truncation (γ or β)")
	// ErrWordOutOfRange: the input id is not in [0, N).
	ErrWordOutOfRange = errors.New("word id out of range")
	// ErrEmptyVocabulary: the mechanism would have no word to release.
	ErrEmptyVocabulary = errors.New("empty vocabulary")
	// ErrNoLists: the asset lacks the lists the mechanism needs: the
	// 1-Diffractor permutations, the Euclidean TEM lists, or CusText's
	// output sets.
	ErrNoLists = errors.New("the asset lacks the lists this mechanism needs")
	// ErrListMismatch: the lists do not all cover the same vocabulary.
	ErrListMismatch = errors.New("lists have different lengths")
	// ErrNilSource: Privatize was called without a random source.
	ErrNilSource = errors.New("nil random source")
)

// DefaultBeta is the β of Theorem 4.2 used when TEMOptions.Beta is zero.
const DefaultBeta = 0.001

// checkEpsilonRange is where every constructor checks ε: a finite number
// in [floor, MaxEpsilon], floor being the mechanism's (epsrange).
func checkEpsilonRange(eps, floor float64) error {
	if msg := epsrange.Problem(eps, floor); msg != "" {
		return errwrap.Tag(ErrInvalidEpsilon, "%s", msg)
	}
	return nil
}

// hammingFloor is the ε floor of the mechanisms on 256-bit codes (BRR,
// TEM (Hamming), SanText, SanText+): 0.001/256 per bit.
func hammingFloor() float64 { return epsrange.Floor(epsrange.HammingDiameter) }

// listFloor is the ε floor of 1-DG and 1-DT on n words: 0.001/(n−1) per
// position.
func listFloor(n int) float64 { return epsrange.Floor(epsrange.ListDiameter(n)) }

// checkEpsilon checks only that ε is a finite number > 0 (for formulas
// such as TheoremGamma, which have no floor of their own).
func checkEpsilon(eps float64) error {
	if math.IsNaN(eps) || math.IsInf(eps, 0) || eps <= 0 {
		return errwrap.Tag(ErrInvalidEpsilon, "ε = %v is not a finite number > 0", eps)
	}
	return nil
}

func checkCall(name string, w, n int, src rand.Source) error {
	if w < 0 || w >= n {
		return errwrap.Tag(ErrWordOutOfRange, "%s: word id %d not in [0, %d)", name, w, n)
	}
	if src == nil {
		return fmt.Errorf("%s: %w", name, ErrNilSource)
	}
	return nil
}

// TEMOptions choose TEM's truncation radius γ.
type TEMOptions struct {
	// Gamma, if > 0, is γ in the metric's units. Zero means Theorem 4.2.
	Gamma float64
	// Beta is Theorem 4.2's β; zero means DefaultBeta. Ignored when Gamma
	// is set.
	Beta float64
}

// TheoremGamma returns Theorem 4.2's γ = (2/ε)·ln((1−β)(N−1)/β), the
// radius beyond which the output is outside L_w's utility with probability
// at most β. For N = 1 it returns 0 (the ball is the whole vocabulary).
func TheoremGamma(eps, beta float64, n int) (float64, error) {
	if err := checkEpsilon(eps); err != nil {
		return 0, err
	}
	if !(beta > 0 && beta < 1) {
		return 0, errwrap.Tag(ErrInvalidTEMOptions, "β = %v is not in (0, 1)", beta)
	}
	if n <= 1 {
		return 0, nil
	}
	g := 2 / eps * math.Log((1-beta)*float64(n-1)/beta)
	// For tiny N and β close to 1 the logarithm is negative: no word but
	// w itself would be in the ball, which a radius of 0 already says.
	return max(g, 0), nil
}

// gammaFor resolves γ from options.
func (o TEMOptions) gammaFor(eps float64, n int) (float64, error) {
	if o.Gamma != 0 {
		if math.IsNaN(o.Gamma) || math.IsInf(o.Gamma, 0) || o.Gamma < 0 {
			return 0, errwrap.Tag(ErrInvalidTEMOptions, "γ = %v is not a finite number ≥ 0", o.Gamma)
		}
		return o.Gamma, nil
	}
	beta := o.Beta
	if beta == 0 {
		beta = DefaultBeta
	}
	return TheoremGamma(eps, beta, n)
}
