package binarize

// SplitQueries draws two disjoint query sets of size count each from rows
// [0, n): a tuning set, for choosing hyperparameters, and a held-out report
// set, for the numbers that are published. A seeded permutation of the
// rows is cut in half; each set is the first count ids of its half.
func SplitQueries(n, count int, seed uint64) (tune, report []int, err error) {
	if count < 1 || 2*count > n {
		return nil, nil, errorf("cannot draw two disjoint sets of %d queries from %d words", count, n)
	}
	perm := newRNG(seed, streamQueries).sample(n, n)
	return perm[:count:count], perm[n/2 : n/2+count : n/2+count], nil
}
