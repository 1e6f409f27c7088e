package plane_test

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/plane"
)

// Each run is scored on its own test reviews, so the runs are independent
// and a cell's interval is Student's t over them.
func ExampleSummarize() {
	a, err := wva.Default()
	if err != nil {
		panic(err)
	}
	var recs []plane.Record
	for run, acc := range []float64{0.86, 0.87, 0.88} {
		recs = append(recs, plane.Record{Kind: "plane", Mechanism: plane.Baseline, Run: run,
			Clean: acc, Privatized: acc, Asset: plane.AssetID(a), Config: "c"})
	}
	cells, _, err := plane.Summarize(recs, a, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(cells[0].Mech, cells[0].Clean)
	// Output: none 87.0 ± 2.5
}
