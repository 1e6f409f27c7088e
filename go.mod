module github.com/wordveil/wordveil

go 1.26.8

require (
	github.com/bits-and-blooms/bitset v1.29.0
	github.com/klauspost/compress v1.20.3
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	golang.org/x/crypto v0.58.0
	golang.org/x/mobile v0.0.0-20261011034528-197770444867
	golang.org/x/sys v0.49.0
)

require (
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
)

tool (
	golang.org/x/mobile/cmd/gobind
	golang.org/x/mobile/cmd/gomobile
)

// golang.org/x/mobile requires this version of golang.org/x/exp/shiny,
// which nothing here imports and which the Go proxy does not serve. Without
// the exclusion, commands that load the whole module graph (go doc with an
// import path, go list -m all) fail offline; builds never needed it.
exclude golang.org/x/exp/shiny v0.0.0-20261009195045-ca0d7ba23607
