module github.com/wordveil/wordveil

go 1.26.8

require (
	github.com/bits-and-blooms/bitset v1.29.0
	github.com/klauspost/compress v1.20.3
	golang.org/x/sys v0.49.0
)
