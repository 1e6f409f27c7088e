package mechanism

import (
	"math"
	"strconv"

	"github.com/wordveil/wordveil/internal/wva"
)

func itoa(i int) string     { return strconv.Itoa(i) }
func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', 4, 64) }

type wvaNeighbor = wva.Neighbor

func expNeg(x float64) float64 { return math.Exp(-x) }
