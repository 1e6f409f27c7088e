package euclid

// dot4 returns the dot products of x with a, b, c and d. Loading each x[k]
// once for four rows quarters the memory traffic of four separate dots; the
// compiler keeps the four sums in registers.
func dot4(x, a, b, c, d []float32) (sa, sb, sc, sd float32) {
	n := len(x)
	a, b, c, d = a[:n], b[:n], c[:n], d[:n]
	for k, v := range x {
		sa += v * a[k]
		sb += v * b[k]
		sc += v * c[k]
		sd += v * d[k]
	}
	return
}

func dot(x, a []float32) (s float32) {
	a = a[:len(x)]
	for k, v := range x {
		s += v * a[k]
	}
	return
}
