package mia_test

import (
	"fmt"

	"github.com/wordveil/wordveil/research/internal/eval/mia"
)

// The attack's scores on members and non-members give its AUC: here 7 of
// the 9 member/non-member pairs are ordered right, 1 is tied.
func ExampleROCAUC() {
	a := mia.ROCAUC([]float64{0.9, 0.6, 0.4}, []float64{0.5, 0.4, 0.1})
	fmt.Printf("AUC %.3f\n", a.AUC)
	// Output: AUC 0.833
}
