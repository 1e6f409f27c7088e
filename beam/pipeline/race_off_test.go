//go:build !race

package pipeline

// raceEnabled: the tests run under the race detector.
const raceEnabled = false
