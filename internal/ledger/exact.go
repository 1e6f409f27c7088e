package ledger

import (
	"math"
	"math/big"
)

// exactSum is a sum of finite, non-negative float64s held exactly, as an
// integer count of 2⁻¹⁰⁷⁴ (the smallest subnormal): every such float is a
// whole multiple of it. Adding and later subtracting the same amount
// restores the sum bit for bit, so a rolling window that adds charges as
// they arrive and subtracts them as they expire never drifts, however long
// it runs, and each step costs O(1) (at most ~2100 bits of arithmetic).
// A float64 running sum would drift with every subtraction, and a
// compensated (Kahan/Neumaier) sum only shrinks the drift.
type exactSum struct {
	v big.Int
	t big.Int // scratch, so adding, subtracting and comparing do not allocate
	u big.Int // scratch: exceeds' limit
}

// sumScale is the power of two every float64 is a whole multiple of.
const sumScale = 1074

// scaled sets z to x·2¹⁰⁷⁴ (exact) for a finite x ≥ 0.
func scaled(z *big.Int, x float64) *big.Int {
	b := math.Float64bits(x)
	frac, e := b&(1<<52-1), int(b>>52&0x7ff)
	if e == 0 { // subnormal or zero: frac·2⁻¹⁰⁷⁴
		return z.SetUint64(frac)
	}
	z.SetUint64(frac | 1<<52)
	return z.Lsh(z, uint(e-1)) // (1.frac·2⁵²)·2^(e-1075) · 2¹⁰⁷⁴
}

func (s *exactSum) add(x float64) { s.v.Add(&s.v, scaled(&s.t, x)) }

func (s *exactSum) sub(x float64) { s.v.Sub(&s.v, scaled(&s.t, x)) }

// plus returns the sum with x added, rounded to the nearest float64.
func (s *exactSum) plus(x float64) float64 {
	var t big.Int
	return toFloat(t.Add(&s.v, scaled(&t, x)))
}

// exceeds reports whether the sum plus x is above limit, exactly (no
// rounding can let a charge slip under a cap). Like add, it uses s's
// scratch: a bulk caller charges every record through it (a Tally per
// user), and three big.Int allocations a charge were most of its cost.
func (s *exactSum) exceeds(x, limit float64) bool {
	return s.exceedsInt(x, scaled(&s.u, limit))
}

// exceedsInt is exceeds with a limit already scaled (not s.t).
func (s *exactSum) exceedsInt(x float64, limit *big.Int) bool {
	return s.t.Add(&s.v, scaled(&s.t, x)).Cmp(limit) > 0
}

func (s *exactSum) float() float64 { return toFloat(&s.v) }

// toFloat rounds a scaled integer to the nearest float64 (ties to even).
func toFloat(v *big.Int) float64 {
	var f big.Float
	f.SetInt(v) // exact: the precision grows to fit
	f.SetMantExp(&f, -sumScale)
	x, _ := f.Float64()
	return x
}
