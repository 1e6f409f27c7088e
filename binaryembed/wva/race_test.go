//go:build race

package wva

const raceEnabled = true
