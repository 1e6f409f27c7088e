package main

// The layers of the SDK module, top to bottom, as data: the layer test
// (layers_test.go) checks every package of `go list ./...` against them and
// this command draws them into the README's Layout section. A package that
// is in no layer fails the test until it is placed here.

// layer is one level of the module. Its non-test code may import packages
// of the layers in may (and of its own layer when self is set); its
// _test.go files may also import those in tests.
type layer struct {
	name  string
	what  string
	may   []string
	self  bool
	tests []string
	// mainsOnly: outside tests, only main packages may import this layer.
	mainsOnly bool
	pkgs      []pkg
}

// pkg is one package, by its path inside the module ("." is the root).
type pkg struct {
	path, what string
}

// Layer names, used in may and tests.
const (
	commands     = "commands"
	binding      = "binding"
	support      = "command support"
	composition  = "composition"
	libraries    = "libraries"
	verification = "verification"
	engine       = "engine"
	leaves       = "leaves"
	testOnly     = "test-only"
)

var layers = []layer{
	// commands: programs a user runs. cmd/wordveil is package core's
	// first client and may use anything below, except test-only helpers.
	// Its tests may also import the binding: TestFrontDoorsAgree runs one
	// table through package core, the binding and the CLI.
	{
		name:  commands,
		what:  "programs a user runs",
		may:   []string{composition, libraries, verification, engine, leaves, support},
		tests: []string{testOnly, binding},
		pkgs: []pkg{
			{"cmd/wordveil", "the CLI (privatize, demo, stats, bench, audit, assets inspect, neighbours, version)"},
		},
	},
	// binding: what gomobile binds. It reaches the SDK through the root
	// package only, so the binding and Go users share one composition;
	// its tests may build engine values to compare against.
	{
		name:  binding,
		what:  "the gomobile binding: a thin adapter over package core",
		may:   []string{composition, leaves},
		tests: []string{engine, testOnly},
		pkgs: []pkg{
			{"mobile", "the only package gomobile binds (int64 fields, guards, the error-code table)"},
		},
	},
	// command support: what the commands and the developer tools share.
	// Nothing of the SDK imports it: only main packages (and tests) do.
	{
		name:      support,
		what:      "shared by commands and developer tools; imported only by main packages and tests",
		may:       []string{composition, verification, engine, leaves},
		self:      true,
		tests:     []string{testOnly},
		mainsOnly: true,
		pkgs: []pkg{
			{"internal/cli", "usage errors, flag parsing and exit codes of both CLIs"},
			{"internal/progress", "progress on stderr for long command-line jobs"},
			{"internal/tools/apireport", "counts the exported API per package (scripts/exported-names.sh)"},
			{"internal/tools/kernelname", "prints the Hamming kernel this machine uses, for benchmark reports"},
			{"internal/tools/layers", "this drawing, and the test that holds the code to it (make layout)"},
			{"internal/tools/testtimes", "the slowest tests of a go test -json run (make test-times)"},
			{"scripts/measure/mobiledoc", "writes one mobile measurement run into docs/MOBILE.md and the README"},
		},
	},
	// composition: the SDK's API. Open validates a Config once and wires
	// the engine into a Privatizer; every front door goes through it.
	{
		name:  composition,
		what:  "the SDK's API, the one place the engine is wired together",
		may:   []string{engine, leaves},
		tests: []string{verification, testOnly},
		pkgs: []pkg{
			{"core", "package core: Open(Config) → *Privatizer, error categories, Close"},
		},
	},
	// libraries: public packages a stranger may import, each a small,
	// documented API over the engine (which stays internal): the search
	// and a read-only view of an asset. The SDK's own composition does not
	// need them; the commands may use them.
	{
		name:  libraries,
		what:  "public libraries over the engine: what a stranger imports besides core",
		may:   []string{engine, leaves},
		self:  true,
		tests: []string{testOnly},
		pkgs: []pkg{
			{"binaryembed", "public: read-only view of an embedding asset (words, 256-bit codes, lookup, lists)"},
			{"hamming", "public: exact nearest, k-NN and range search over 256-bit codes, uniform ties"},
		},
	},
	// verification: exact laws, audits and the mechanisms kept only to
	// be audited. They consume the engine; nothing of the product (engine,
	// composition, binding, leaves) imports them, so the product cannot
	// build SanText+ or CusText+.
	{
		name:  verification,
		what:  "exact laws, audits, and the mechanisms kept only to be audited; consumers of the engine",
		may:   []string{engine, leaves},
		self:  true,
		tests: []string{testOnly},
		pkgs: []pkg{
			{"internal/audit", "exact-law audits of every mechanism (wordveil audit)"},
			{"internal/dpexact", "exact output distributions and the metric-DP checker"},
			{"internal/keepwords", "SanText+ and CusText+, which release some words unchanged: audit and research only"},
			{"internal/levelfacts", "what each privacy level means per mechanism (wordveil stats, PRIVACY_LEVELS.md)"},
		},
	},
	// engine: the mechanisms, whole texts, accounting, the asset format
	// and the search they are built on.
	{
		name:  engine,
		what:  "mechanisms, texts, accounting, the asset format and the search beneath them",
		may:   []string{leaves},
		self:  true,
		tests: []string{verification, testOnly},
		pkgs: []pkg{
			{"internal/anchor", "the host's rollback-anchor store: the interface, its file implementation, directory pins and resets"},
			{"internal/deniability", "plausible deniability (N_w, S_w) of any mechanism"},
			{"internal/hamming", "exact k-NN and range search over 256-bit codes (scan, MIH, planner, chains)"},
			{"internal/ledger", "the on-disk privacy budget (append-only, O(1) per charge)"},
			{"internal/mechanism", "the on-device mechanisms, their facts, presets and the secure source"},
			{"internal/memo", "permanent responses per word, sealed at rest, atomic across processes"},
			{"internal/privatize", "whole texts: layout kept, out-of-vocabulary policies, accounting"},
			{"internal/wva", "the .wva asset format (encode, verify, decode, bounded file reads; the embedded asset decoded once)"},
		},
	},
	// leaves: import nothing of the module, so anything may use them.
	{
		name:  leaves,
		what:  "import nothing of the module",
		tests: []string{testOnly},
		pkgs: []pkg{
			{"assets", "public: the embedded default English asset's bytes, and its provenance"},
			{"internal/buildinfo", "which build is running (wordveil version, mobile.Version)"},
			{"internal/epsrange", "the one definition of the ε every mechanism accepts"},
			{"internal/errwrap", "engine errors that name their source once and still match their sentinel"},
			{"internal/linereader", "line reading with a bound on memory"},
			{"internal/safefile", "atomic files and cross-process locks"},
			{"internal/sample", "exact samplers: uniform integers, Bernoulli, exponential, Gumbel, geometric; the secure source"},
			{"internal/seeded", "the evaluation-only seeded source (tests, core.UseEvaluationSeed, research)"},
			{"internal/tokenize", "splits text into words and layout, and joins them back"},
			{"internal/wva/internal/bitpack", "fixed-width unsigned integers packed into bytes"},
		},
	},
	// test-only helpers: imported by _test.go files only, never by the
	// code they test.
	{
		name:  testOnly,
		what:  "helpers imported only by _test.go files",
		may:   []string{leaves},
		self:  true,
		tests: []string{leaves},
		pkgs: []pkg{
			{"internal/shapes", "adversarial input shapes for the linear-time tests"},
			{"internal/stattest", "the chi-square oracle and fixed test seeds"},
		},
	},
}

// exception is an import the layers would refuse, allowed by name.
type exception struct {
	from, to, why string
}

var exceptions = []exception{
	// The "+" variants are implemented in mechanism beside the samplers
	// they share and registered into keepwords at init, so that only an
	// importer of keepwords (verification, commands, research) can build
	// them; the product's layers may not import keepwords.
	{"internal/mechanism", "internal/keepwords", "mechanism/keepwords.go registers SanText+ and CusText+ into it at init"},
}

// restricted lists, for a package, the only packages whose non-test code
// may import it (its layer's rules apply on top).
var restricted = map[string][]string{
	// A seeded source lets anyone who knows the key invert the
	// privatization: package core offers it through explicit calls
	// (core.UseEvaluationSeed and core.PrivatizeEvaluationBlock, which the
	// CLI's and Beam's -seed use), wva estimates a public constant of the
	// asset (listsmean.go: P_avg of the lists), and levelfacts estimates the papers' N_w and S_w for
	// stats. Nothing else in the product may reach it.
	"internal/seeded": {"core", "internal/wva", "internal/levelfacts"},
}

// other is the rest of the repository, drawn under the layers.
var other = []pkg{
	{"research/", "the research module (its own go.mod; imports the internals it needs by path):"},
	{"  cmd/", "wordveil-research (assets build, eval), wvquality, wvcalibrate, wvinduce"},
	{"  internal/", "its packages, imported by nothing outside it:"},
	{"    binarize/", "word-vector readers, binarizers, quality metrics"},
	{"    assetbuild/", "builds an asset (.wva) from word vectors"},
	{"    alacarte/", "à la carte vectors for words the source embedding lacks"},
	{"    euclid/", "exact Euclidean search over float32 vectors"},
	{"    floatmech/", "mechanisms over float vectors: Madlib, Mahalanobis, Vickrey, TrLaplace, baselines"},
	{"    eval/", "evaluation: IMDB data, classifier, privacy measures, the study, plots, report"},
	{"bench/", "cross-library benchmarks (FAISS)"},
	{"docs/", "mechanisms, references, benchmarks, formats, reports"},
	{"android-sample/", "the Android keyboard sample app"},
	{"ios-sample/", "the iOS keyboard sample app"},
}
