//go:build race

package hamming

// raceEnabled: under the race detector sync.Pool drops a share of what is
// put back on purpose, so steady-state allocation counts do not hold.
const raceEnabled = true
