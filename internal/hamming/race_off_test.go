//go:build !race

package hamming

// raceEnabled: see race_on_test.go.
const raceEnabled = false
