package wva

import "github.com/wordveil/wordveil/assets"

// The embedded asset's structure is proven at build and test time and
// trusted at run time through a checksum.
//
// TestDefaultProven (run by `make test` and `make assets`) decodes the
// embedded bytes with every check DecodeWith makes, and records their
// size, CRC-32C and SHA-256 in proven_default.go (regenerated with
// `go test ./internal/wva -run TestDefaultProven -update-proven`); it
// fails while the recorded values are not those of the bytes embedded.
//
// At run time DecodeDefault compares the embedded bytes' size and CRC-32C
// (one hardware-assisted pass, about 0.4 ms for 5 MB, where SHA-256 takes
// about 3 ms) with the recorded ones, and only when both match skips the
// checks the proof covers: the sections' CRCs (the whole file's CRC
// replaces them), the stand-ins' per-entry checks (order, front coding,
// lengths, UTF-8, ids; about half of a first open), the vocabulary's
// offsets, UTF-8 and order, and the CusText sets' partition. The header,
// the section table and every section's fixed fields and sizes are still
// checked, and the lists and codes decoded, as for any file.
//
// What the run-time comparison defends against: embedded bytes that are
// not the proven ones because the asset file changed after
// proven_default.go was generated and the program was built without
// running the tests (a rebuilt or hand-edited asset, a Git LFS pointer or
// a line-ending conversion at checkout, a truncated copy). CRC-32C
// detects every such accidental change of up to 32 bits in a burst, and
// any other with probability 1 − 2^-32; the bytes are then decoded with
// every check, as a file is. What it does not defend against, and need
// not: the bytes changing after linking (they are read-only program data;
// a write faults), or someone rewriting the program file (who could as
// well rewrite the checks; SHA-256 at run time would not help either).
// Files and Config.Asset bytes are never trusted this way.

// DecodeDefault decodes the embedded default asset (assets.DefaultBytes)
// with opt, trusting the structure its tests proved when its size and
// CRC-32C are the recorded ones (see above), and checking it in full
// otherwise.
func DecodeDefault(opt DecodeOptions) (*Asset, error) {
	b := assets.DefaultBytes()
	opt.proven = isProvenDefault(b)
	return DecodeWith(b, opt)
}

// isProvenDefault reports whether b has the size and CRC-32C recorded for
// the proven embedded asset.
func isProvenDefault(b []byte) bool {
	return len(b) == provenDefaultSize && checksum(b) == provenDefaultCRC32C
}
