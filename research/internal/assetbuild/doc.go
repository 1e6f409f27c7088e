// Package assetbuild turns a float word-embedding file into a WordVeil asset
// (.wva): it selects the vocabulary, binarizes it to 256-bit codes, builds
// the 1-Diffractor lists (exact greedy Hamming chains) and the TEM
// neighbour lists (every word within γ_max, exact Euclidean distances
// rounded up to a grid), and records the provenance.
//
// Guarantee: the build is a pure function of the source bytes and the
// Config. Every random choice comes from a seed recorded in the asset's
// header, every parallel step is reduced in a fixed order, and the asset
// encoder is deterministic, so the same inputs give the same file byte for
// byte (on amd64, where Go never fuses multiply-adds implicitly).
package assetbuild
