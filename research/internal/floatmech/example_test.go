package floatmech_test

import (
	"fmt"
	"math"
	"strings"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/research/internal/floatmech"
)

// The TrLaplace paper's variance claim (Theorem 4) at d = 100 and its
// δ = 4^−d, per coordinate, in units of C²: the truncated noise has far
// less variance than the Laplace and Gaussian baselines — but its claimed
// δ does not hold (TrueDelta: the real δ of the noisy vector).
func ExampleTrLaplaceParams_Variance() {
	const d, c = 100, 1.0
	lnInvDelta := 2 * math.Ln2 * d // δ = 4^−100
	fmt.Println("    ε   d'   TrLaplace     Laplace    Gaussian  true δ ≥")
	for _, eps := range []float64{0.1, 0.5, 1, 5, 10, 20} {
		p, err := floatmech.NewTrLaplaceParams(eps, c, 0, d)
		if err != nil {
			fmt.Println(err)
			return
		}
		delta1 := 2 * math.Sqrt(d) * c
		lap := 2 * delta1 * delta1 / (eps * eps)
		gauss := "   (ε > 1)"
		if eps <= 1 {
			gauss = fmt.Sprintf("%10.4g", 8*c*c*(math.Log(1.25)+lnInvDelta)/(eps*eps))
		}
		td, _ := p.TrueDelta()
		fmt.Printf("%5.3g %4d %11.4g %11.4g  %s  %8.4f\n", eps, p.DPrime, p.Variance(), lap, gauss, td)
	}
	// Output:
	//     ε   d'   TrLaplace     Laplace    Gaussian  true δ ≥
	//   0.1  100       5.415       8e+04   1.111e+05    0.9164
	//   0.5  100       5.765        3200        4443    0.8979
	//     1  100       6.272         800        1111    0.8687
	//     5  101       25.03          32     (ε > 1)    0.0470
	//    10  154       10.58           8     (ε > 1)    0.0366
	//    20  275       5.251           2     (ε > 1)    0.0108
}

// Madlib on a three-word vocabulary in the plane, with the product's
// secure source (no seed).
func ExampleNewMadlib() {
	emb, err := floatmech.NewEmbedding([]float32{0, 0, 1, 0, 0, 1}, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := floatmech.NewMadlib(emb, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	y, err := m.Privatize(0, mechanism.NewSecureSource())
	fmt.Println(y >= 0 && y < 3, err)
	// Output: true <nil>
}

// Text in, private text out with a float-vector mechanism: every
// mechanism here is a mechanism.Mechanism, so package privatize (layout
// kept, case restored, out-of-vocabulary tokens replaced) takes it.
func ExampleMadlib_text() {
	words := []string{"good", "great", "bad", "awful", "movie", "film"}
	vecs := []float32{1, 0, 1.1, 0.1, -1, 0, -1.1, -0.1, 0, 1, 0.1, 1.1}
	a := (&wva.Asset{Floats: vecs, Codes: make([]hamming.Code, len(words))}).SetWords(words)
	a.Header.Dim = 2
	emb, err := floatmech.FromAsset(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := floatmech.NewMadlib(emb, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	tp, err := privatize.New(m, a, privatize.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := tp.Privatize("Good movie, call 555-0100!", mechanism.NewSecureSource())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Accounting.Words, res.Accounting.OOV, strings.Count(res.Text, ","), strings.Contains(res.Text, "555"))
	// Output: 2 3 1 false
}
