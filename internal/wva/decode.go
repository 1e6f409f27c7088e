package wva

import (
	"crypto/sha256"
	"fmt"

	"github.com/wordveil/wordveil/internal/hamming"
)

// Load reads the asset file at path with ReadFile (so at most MaxFileSize
// bytes, and never from a device or pipe) and decodes it; see Decode.
func Load(path string) (*Asset, error) {
	return LoadWith(path, DecodeOptions{})
}

// LoadWith is Load with options (a research asset with float vectors
// needs a MaxMemory above the default).
func LoadWith(path string, opt DecodeOptions) (*Asset, error) {
	b, err := ReadFile(path)
	if err != nil {
		return nil, err // ReadFile's errors name the path
	}
	a, err := DecodeWith(b, opt)
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return a, nil
}

// Decode parses and fully validates a .wva file. It never panics and never
// allocates more than DefaultMaxDecodeMemory (see DecodeOptions.MaxMemory):
// every section's declared raw length is checked against what its kind
// can hold for the header's counts, and the decoders' allocations are
// bounded from those counts, before any section is inflated or decoded.
//
// Decode copies what it keeps: the result holds no reference to b, and
// Asset.SHA256 is computed here. DecodeWith with InPlace lets the Asset
// use b where it lies instead. Decode reads format 3, which this package
// writes, and format 2 (built before 2026-11), into the same Asset.
func Decode(b []byte) (a *Asset, err error) {
	return DecodeWith(b, DecodeOptions{})
}

// DecodeOptions trim what Decode keeps in memory.
type DecodeOptions struct {
	// SkipTEM leaves Asset.TEM nil. The TEMLISTS section is still checked
	// against its CRC (with every other section, before any is decoded);
	// only its ~3 MB in-memory form is not built. For callers that will
	// never run TEM over the Euclidean lists, such as a phone keyboard
	// running BRR or 1-Diffractor.
	SkipTEM bool
	// SkipFloats leaves Asset.Floats nil (research builds carry them).
	SkipFloats bool
	// InPlace lets the Asset use b where it lies: in a format-3 file the
	// codes, the vocabulary's text and lookup table, the lists' orders,
	// the stand-ins' text and ids and the CusText sets' packed ids are
	// then views of b's sections (the arrays when aligned on a
	// little-endian host; see codes.go and u32view.go), and Asset.SHA256
	// hashes b on first use: Decode checks every section but neither
	// copies them nor hashes the file. The caller promises that b is
	// never modified nor unmapped while the Asset is in use: the embedded
	// asset (read-only program data) qualifies. Without InPlace every
	// section used is copied and the hash computed at once, so the Asset
	// keeps no reference to b (a caller's buffer can be collected).
	// Format-2 files are decoded into memory either way, except the codes.
	InPlace bool
	// MaxMemory bounds what decoding may allocate, in bytes: before any
	// section is inflated or decoded, an upper bound on its allocations
	// is computed from the checked header counts and the file is refused
	// (ErrCorrupt, naming the costliest section) if it is larger. 0 means
	// DefaultMaxDecodeMemory; a research build with float vectors needs
	// more. Negative is an error (ErrInvalid).
	MaxMemory int64
	// proven is set by DecodeDefault only, after it found b to be the
	// embedded asset whose structure the tests proved (proven.go): the
	// checks that proof covers (section CRCs, the vocabulary's offsets,
	// UTF-8 and order, the CusText sets' partition, the stand-ins'
	// entries) are then skipped.
	proven bool
}

// DecodeWith is Decode with options.
func DecodeWith(b []byte, opt DecodeOptions) (a *Asset, err error) {
	// Every input is validated before use, so a panic here is a bug (ours
	// or the standard library's); on a phone it would kill the host app, so it becomes an
	// error. The fuzz test fails on this message, so bugs are not hidden.
	defer func() {
		if p := recover(); p != nil {
			a, err = nil, panicError(p)
		}
	}()
	in, err := parseTable(b)
	if err != nil {
		return nil, err
	}
	// The sections' checksums are verified beside the decoding (about a
	// millisecond per 4 MB on one core), which is safe because every
	// decoder accepts any bytes (fuzzed: no panic, allocations bounded by
	// the checked header); nothing is returned before both are done, and
	// a checksum error wins over whatever the decoders made of the bytes,
	// as when it was checked first.
	sums := make(chan error, 1) // never blocks: the goroutine always finishes
	go func() {
		defer func() {
			if p := recover(); p != nil {
				sums <- panicError(p)
			}
		}()
		if opt.proven {
			sums <- nil // the whole file's CRC-32C was compared already (DecodeDefault)
			return
		}
		sums <- verifySections(b, in)
	}()
	defer func() {
		if serr := <-sums; serr != nil {
			a, err = nil, serr
		}
	}()
	var sec [kindLast + 1]*SectionInfo
	for i := range in.Sections {
		s := &in.Sections[i]
		if s.Kind.known() {
			sec[s.Kind] = s
		}
	}
	for _, k := range []Kind{kindVocab, kindCodes} {
		if sec[k] == nil {
			return nil, corruptf("section table", "required section %s missing", k)
		}
	}
	h := in.Header
	if err := checkHeader(&h, sec); err != nil {
		return nil, err
	}
	if err := checkRawSizes(&h, &sec, in.Major); err != nil {
		return nil, err
	}
	if err := checkDecodeCost(&h, &sec, in.Major, opt); err != nil {
		return nil, err
	}
	n := h.Words

	raw := func(k Kind) ([]byte, error) {
		s := sec[k]
		stored := b[s.Offset : s.Offset+s.Stored]
		if s.Flags&flagDeflate == 0 {
			return stored, nil
		}
		return decompress(k, stored, s.Raw)
	}

	// The stand-ins are decoded beside the other sections: they need
	// nothing the others produce. On a device with more than one core
	// this keeps their cost (inflating about 0.7 MB and checking 100,000
	// words) off the load's critical path; their errors are reported like
	// any other section's, after the rest has been decoded.
	var standIns chan standInsResult
	if sec[kindStandIns] != nil {
		standIns = make(chan standInsResult, 1)
		// Every return waits for the goroutine: it reads b, which the
		// caller may reuse as soon as Decode returns, even with an error.
		defer func() {
			if standIns != nil {
				<-standIns
			}
		}()
		go func() {
			var res standInsResult
			defer func() {
				if p := recover(); p != nil {
					res = standInsResult{err: panicError(p)}
				}
				standIns <- res
			}()
			r, err := raw(kindStandIns)
			if err != nil {
				res.err = err
				return
			}
			if in.Major == 3 {
				res.s, res.err = decodeStandInsV3(r, n, h.StandIns, opt.InPlace, opt.proven)
			} else {
				res.s, res.err = decodeStandIns(r, n, h.StandIns)
			}
		}()
	}

	// In place, the file's hash is computed on first use (Asset.SHA256):
	// only a memo's identity and a report of provenance need it, and
	// hashing the whole file on every decode cost about a tenth of the
	// load. Otherwise it is computed now, so that b need not be kept.
	a = &Asset{Header: h, decoded: true}
	if opt.InPlace {
		a.src = b
	} else {
		sum := sha256.Sum256(b)
		a.shaOnce.Do(func() { a.sha = sum })
	}
	v3 := in.Major == 3
	r, err := raw(kindVocab)
	if err != nil {
		return nil, err
	}
	if v3 {
		a.words, err = decodeVocab(r, n, opt.InPlace, opt.proven)
	} else {
		a.words, err = decodeVocabV2(r, n)
	}
	if err != nil {
		return nil, err
	}

	if r, err = raw(kindCodes); err != nil {
		return nil, err
	}
	if a.Codes, err = decodeCodesSection(r, opt.InPlace); err != nil {
		return nil, corruptf("section CODES", "%v", err)
	}

	if sec[kindLists] != nil {
		if r, err = raw(kindLists); err != nil {
			return nil, err
		}
		if v3 {
			a.Lists, err = decodeLists(r, n, opt.InPlace)
		} else {
			a.Lists, err = decodeListsV2(r, n)
		}
		if err != nil {
			return nil, err
		}
		if len(a.Lists) != h.Lists.Count {
			return nil, corruptf("section LISTS", "%d lists, header says %d", len(a.Lists), h.Lists.Count)
		}
		if !v3 {
			// Format 2 did not store P_avg: derived here, so that a
			// decoded header is the same whatever the file's version.
			a.Header.Lists.MeanDistance = ListsMeanDistance(a.Lists)
		}
		for i, p := range a.Lists {
			if n > 0 && p.Order[0] != h.Lists.StartWords[i] {
				return nil, corruptf("section LISTS", "list %d starts at word %d, header says %d", i, p.Order[0], h.Lists.StartWords[i])
			}
		}
	}
	if sec[kindTEMLists] != nil && !opt.SkipTEM {
		if r, err = raw(kindTEMLists); err != nil {
			return nil, err
		}
		if a.TEM, err = decodeTEM(r, n, h.TEM); err != nil {
			return nil, err
		}
	}
	if sec[kindFloats] != nil && !opt.SkipFloats {
		if r, err = raw(kindFloats); err != nil {
			return nil, err
		}
		if a.Floats, err = decodeFloats(r, n, h.Dim); err != nil {
			return nil, err
		}
	}
	if sec[kindCusText] != nil {
		if r, err = raw(kindCusText); err != nil {
			return nil, err
		}
		if a.CusText, err = decodeCusText(r, n, h.CusText, opt.InPlace, opt.proven); err != nil {
			return nil, err
		}
	}
	if standIns != nil {
		res := <-standIns
		standIns = nil // received: the deferred wait is done
		if res.err != nil {
			return nil, res.err
		}
		a.StandIns = res.s
	}
	return a, nil
}

// standInsResult is what the stand-ins' decoding goroutine hands back.
type standInsResult struct {
	s   *StandIns
	err error
}

// internalPanic marks the error Decode and Inspect return after
// recovering a panic.
const internalPanic = "internal error (please report)"

func panicError(p any) error { return fmt.Errorf("wva: %w: %s: %v", ErrCorrupt, internalPanic, p) }

// checkHeader checks the header's counts against the section table and
// the file size, before any section is decoded, so that every later
// allocation is sized by a checked count.
func checkHeader(h *Header, sec [kindLast + 1]*SectionInfo) error {
	const part = "header"
	codes := sec[kindCodes]
	switch {
	case h.CodeBits != hamming.Bits:
		return corruptf(part, "codeBits %d, this reader handles %d", h.CodeBits, hamming.Bits)
	case h.Words < 0 || h.Words > maxWords:
		return corruptf(part, "words %d out of [0, %d]", h.Words, maxWords)
	case codes.Raw != uint64(h.Words)*hamming.CodeSize:
		// CODES is stored raw, so this also bounds N by the file size.
		return corruptf(part, "words %d, CODES section holds %d bytes = %d codes", h.Words, codes.Raw, codes.Raw/hamming.CodeSize)
	case h.Dim < 0 || h.Dim > maxDim:
		return corruptf(part, "dim %d out of [0, %d]", h.Dim, maxDim)
	}
	if (h.Lists != nil) != (sec[kindLists] != nil) {
		return corruptf(part, "lists description present = %v, LISTS section present = %v", h.Lists != nil, sec[kindLists] != nil)
	}
	if h.Lists != nil {
		want := 0
		if h.Words > 0 {
			want = h.Lists.Count
		}
		if h.Lists.Count < 1 || h.Lists.Count > maxLists || len(h.Lists.StartWords) != want {
			return corruptf(part, "lists count %d with %d start words", h.Lists.Count, len(h.Lists.StartWords))
		}
		if m := h.Lists.MeanDistance; !(m >= 0 && m <= float64(h.Words)) { // NaN fails too
			return corruptf(part, "lists meanDistance %v out of [0, %d]", m, h.Words)
		}
	}
	if (h.TEM != nil) != (sec[kindTEMLists] != nil) {
		return corruptf(part, "tem description present = %v, TEMLISTS section present = %v", h.TEM != nil, sec[kindTEMLists] != nil)
	}
	if t := h.TEM; t != nil {
		if err := checkTEMParams("header: tem", h.Words, t.Step, t.MaxSteps, corruptf); err != nil {
			return err
		}
		if t.GammaMax != float64(t.MaxSteps)*t.Step {
			return corruptf(part, "tem gammaMax %v, maxSteps × step = %v", t.GammaMax, float64(t.MaxSteps)*t.Step)
		}
	}
	if err := checkCusTextHeader(h, sec[kindCusText] != nil); err != nil {
		return err
	}
	if err := checkStandInsHeader(h, sec[kindStandIns] != nil); err != nil {
		return err
	}
	if msg := checkPresets(h); msg != "" {
		return corruptf(part, "%s", msg)
	}
	if msg := checkExcluded(h.Excluded, h.Words); msg != "" {
		return corruptf(part, "%s", msg)
	}
	if f := sec[kindFloats]; f != nil && (h.Dim == 0 || f.Raw != 4*uint64(h.Words)*uint64(h.Dim)) {
		return corruptf(part, "dim %d and %d words, FLOATS section holds %d bytes", h.Dim, h.Words, f.Raw)
	}
	return nil
}
