package study

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/privacy"
	"github.com/wordveil/wordveil/research/internal/floatmech"
)

// DefaultEuclideanGrid is the study's ε grid in Euclidean units. It holds
// the TEM paper's headline ε = 2 and reaches where Madlib on 100-d GloVe
// (noise radius ≈ 100/ε against a median nearest-neighbour distance of
// 3.3) stops replacing words. Hamming and list mechanisms run at the ε
// that matches each value by the privacy ratio (BRR paper §5).
var DefaultEuclideanGrid = []float64{2, 5, 8, 12, 20, 40}

// ListGrid is 1-Diffractor's own ε grid (per list position). Matching by
// P_avg would put all of it below 0.02 (list positions are a ruler of
// 50,000 steps), where every output is noise; this grid spans 1-DG from
// almost always replaced to almost always kept instead (the measured N_w
// per ε: docs/PRIVACY_LEVELS.md), and the report places it
// on the Euclidean axis by its P_avg-matched equivalent.
var ListGrid = []float64{0.01, 0.03, 0.1, 0.3, 1, 3}

// TrLaplaceGrid is the TrLaplace paper's ε grid (word-level DP, not
// metric: no ratio matching applies).
var TrLaplaceGrid = []float64{0.1, 0.5, 1, 5, 10, 20}

// DefaultMechanisms is the study's mechanism set, in report order.
var DefaultMechanisms = []string{
	"tem", "madlib", "brr-avg", "brr-max", "mahalanobis", "vickrey",
	"1dg-1", "1dg-2", "1dt-1", "1dt-2", "trlaplace", "tem-pool",
	"tem-hamming", "santext", "custext", "syntf", "truncgumbel", "santext-float",
}

// TEMPoolK is the sample pool of "tem-pool", the study's check of what
// pooling does (TEM runs both ways; the other mechanisms draw fresh for
// every token unless Config.PoolK says otherwise).
const TEMPoolK = 8

// VickreyT is the Vickrey mechanism's t in the study (k = 2).
const VickreyT = 0.75

// Env is what the mechanisms are built from: a research asset (codes,
// lists and float vectors of the same words) and the privacy ratios.
type Env struct {
	Asset  *wva.Asset
	Emb    *floatmech.Embedding
	Ham    *hamming.Index
	Ratios map[string]privacy.Ratio // "euclidean", "hamming", "list", "lists"

	// built caches mechanisms that are expensive to construct and safe
	// to share (truncgumbel: an exact nearest-neighbour pass per build),
	// keyed by name and ε.
	built sync.Map
}

// NewEnv indexes a research asset and measures its privacy ratios
// (Hamming exact; Euclidean P_avg from 10^6 sampled pairs, P_max exact;
// one list exact; two lists from 10^6 sampled pairs).
func NewEnv(a *wva.Asset, seed uint64) (*Env, error) {
	emb, err := floatmech.FromAsset(a)
	if err != nil {
		return nil, err
	}
	ham, err := hamming.NewIndex(a.Codes)
	if err != nil {
		return nil, fmt.Errorf("index codes: %w", err)
	}
	if len(a.Lists) < 2 {
		return nil, fmt.Errorf("the study needs an asset with 2 lists, this one has %d", len(a.Lists))
	}
	env := &Env{Asset: a, Emb: emb, Ham: ham, Ratios: map[string]privacy.Ratio{}}
	if env.Ratios["hamming"], err = privacy.HammingRatio(a.Codes); err != nil {
		return nil, err
	}
	if env.Ratios["euclidean"], err = privacy.EuclideanRatio(a.Floats, emb.Dim(), 1_000_000, source(seed, "ratio-euclidean")); err != nil {
		return nil, err
	}
	env.Ratios["list"] = privacy.ListRatio(a.Len())
	lists := make([][]int32, 2)
	for i := range lists {
		lists[i] = make([]int32, len(a.Lists[i].Order))
		for j, w := range a.Lists[i].Order {
			lists[i][j] = int32(w)
		}
	}
	if env.Ratios["lists"], err = privacy.ListsRatio(lists, 1_000_000, source(seed, "ratio-lists")); err != nil {
		return nil, err
	}
	return env, nil
}

// Spec is one mechanism of the study.
type Spec struct {
	Name string
	// Family is the guarantee's kind: "euclidean", "mahalanobis",
	// "hamming", "list", "lists" (metric DP in those units), "dp"
	// (word-level DP, no metric) or "custext" (ε-DP among the words of
	// one output set; the set itself is disclosed).
	Family string
	// Eps is the ε in the mechanism's own units, per grid index.
	Eps []float64
	// Matched is the Euclidean ε each grid point is compared with (P_avg-
	// or P_max-matched), NaN where no matching applies ("dp", "custext").
	Matched []float64
	// Pooled mechanisms use Config.PoolK (the nearest-neighbour and
	// Hamming-scan ones, whose draws are expensive; 0, the default, is
	// fresh draws); the others always draw fresh noise for every token,
	// except "tem-pool" (TEMPoolK).
	Pooled bool
	build  func(env *Env, eps float64) (sampler, error)
	// law, when set, replaces build: the mechanism is an exact
	// exponential mechanism over all words (expMech), and its accuracy
	// corpora come from the corpus pass (corpora.go). Specs with the same
	// lawKey and Eps share their tables there (tem and tem-pool).
	law    func(env *Env, eps float64) (*expMech, error)
	lawKey string
}

// Specs returns the named mechanisms' specs over the Euclidean grid.
// "cand:*" stands for every candidate of the best-configuration search
// (CandidateNames).
func Specs(env *Env, names []string, grid []float64) ([]Spec, error) {
	euc, ham := env.Ratios["euclidean"], env.Ratios["hamming"]
	scale := func(g []float64, f float64) []float64 {
		out := make([]float64, len(g))
		for i, x := range g {
			out[i] = x * f
		}
		return out
	}
	var specs []Spec
	var expanded []string
	for _, name := range names {
		if name == CandidatePrefix+"*" { // every candidate of the search
			expanded = append(expanded, CandidateNames()...)
		} else {
			expanded = append(expanded, name)
		}
	}
	for _, name := range expanded {
		var s Spec
		if mech, ok := strings.CutPrefix(name, PresetPrefix); ok {
			ps, err := presetSpec(env, mech)
			if err != nil {
				return nil, err
			}
			ps.Name = name
			specs = append(specs, ps)
			continue
		}
		if strings.HasPrefix(name, CandidatePrefix) {
			cs, err := candidateSpec(env, name)
			if err != nil {
				return nil, err
			}
			specs = append(specs, cs)
			continue
		}
		switch name {
		case "tem", "tem-pool":
			s = Spec{Family: "euclidean", Eps: grid, Matched: grid, lawKey: "tem", law: func(env *Env, eps float64) (*expMech, error) {
				return newTEM(env.Emb, eps)
			}}
		case "madlib":
			s = Spec{Family: "euclidean", Eps: grid, Matched: grid, Pooled: true, build: func(env *Env, eps float64) (sampler, error) {
				return batch(floatmech.NewMadlib(env.Emb, eps))
			}}
		case "vickrey":
			s = Spec{Family: "euclidean", Eps: grid, Matched: grid, Pooled: true, build: func(env *Env, eps float64) (sampler, error) {
				return batch(floatmech.NewVickrey(env.Emb, eps, VickreyT))
			}}
		case "mahalanobis":
			s = Spec{Family: "mahalanobis", Eps: grid, Matched: grid, Pooled: true, build: func(env *Env, eps float64) (sampler, error) {
				return batch(floatmech.NewMahalanobis(env.Emb, eps, floatmech.DefaultLambda))
			}}
		case "trlaplace":
			s = Spec{Family: "dp", Eps: TrLaplaceGrid, Matched: nans(len(TrLaplaceGrid)), Pooled: true, build: func(env *Env, eps float64) (sampler, error) {
				return batch(floatmech.NewTrLaplace(env.Emb, eps, 0, 0))
			}}
		case "brr-avg", "brr-max":
			f := euc.Avg / ham.Avg
			if name == "brr-max" {
				f = euc.Max / ham.Max
			}
			s = Spec{Family: "hamming", Eps: scale(grid, f), Matched: grid, Pooled: true, build: func(env *Env, eps float64) (sampler, error) {
				return single(mechanism.NewBRR(env.Ham, eps))
			}}
		case "1dg-1", "1dg-2", "1dt-1", "1dt-2":
			k := int(name[4] - '0')
			fam, r := "list", env.Ratios["list"]
			if k == 2 {
				fam, r = "lists", env.Ratios["lists"]
			}
			geometric := name[:3] == "1dg"
			s = Spec{Family: fam, Eps: ListGrid, Matched: scale(ListGrid, r.Avg/euc.Avg), build: func(env *Env, eps float64) (sampler, error) {
				if geometric {
					return single(mechanism.NewDiffractorGeometric(env.Asset.Lists[:k], eps))
				}
				return single(mechanism.NewDiffractorTEM(env.Asset.Lists[:k], eps, mechanism.TEMOptions{}))
			}}
		default:
			ns, ok, err := newSpec(env, name, grid)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("unknown mechanism %q (known: %v)", name, DefaultMechanisms)
			}
			s = ns
		}
		s.Name = name
		specs = append(specs, s)
	}
	return specs, nil
}

// Build returns the sampler of spec at grid index i.
func (s Spec) Build(env *Env, i int) (sampler, error) {
	if s.law != nil {
		return s.law(env, s.Eps[i])
	}
	return s.build(env, s.Eps[i])
}

func nans(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = nan
	}
	return out
}

// sampler draws mechanism outputs: out[i] is an independent draw for
// ws[i] (ws may repeat words).
type sampler interface {
	drawMany(ws []int, out []int, src rand.Source) error
}

type singleSampler struct{ m mechanism.Mechanism }

func single[M mechanism.Mechanism](m M, err error) (sampler, error) {
	if err != nil {
		return nil, err
	}
	return singleSampler{m}, nil
}

func (s singleSampler) drawMany(ws []int, out []int, src rand.Source) error {
	if b, ok := s.m.(mechanism.Batcher); ok {
		return drawBatches(b, ws, out, src)
	}
	for i, w := range ws {
		y, err := s.m.Privatize(w, src)
		if err != nil {
			return err
		}
		out[i] = y
	}
	return nil
}

// drawBatches draws through b's multi-word path (BRR's multi-query scan,
// twice as fast per word as one word at a time), batchChunk words at a
// time. Each draw has the law of b.Privatize (mechanism.Batcher); only the
// order in which src's values are used differs.
func drawBatches(b mechanism.Batcher, ws []int, out []int, src rand.Source) error {
	buf := make([]int32, min(len(ws), batchChunk))
	for lo := 0; lo < len(ws); lo += batchChunk {
		hi := min(lo+batchChunk, len(ws))
		chunk := buf[:hi-lo]
		for i, w := range ws[lo:hi] {
			chunk[i] = int32(w)
		}
		if err := b.PrivatizeBatch(chunk, src); err != nil {
			return err
		}
		for i, y := range chunk {
			out[lo+i] = int(y)
		}
	}
	return nil
}

type batchSampler struct{ m floatmech.Batcher }

func batch[M floatmech.Batcher](m M, err error) (sampler, error) {
	if err != nil {
		return nil, err
	}
	return batchSampler{m}, nil
}

// batchChunk bounds the noisy points held at once.
const batchChunk = 4096

func (s batchSampler) drawMany(ws []int, out []int, src rand.Source) error {
	for lo := 0; lo < len(ws); lo += batchChunk {
		hi := min(lo+batchChunk, len(ws))
		// One worker: the study runs one cell per core.
		if err := s.m.PrivatizeBatch(ws[lo:hi], out[lo:hi], src, 1); err != nil {
			return err
		}
	}
	return nil
}

// PresetPrefix names a study mechanism run at the asset's presets instead
// of the ε grid: "preset:brr" runs BRR at the strong, balanced and light ε
// the asset stores (grid indices 0, 1, 2).
const PresetPrefix = "preset:"

// PresetLevels are the levels of a preset spec, in grid order.
var PresetLevels = []string{mechanism.LevelStrong, mechanism.LevelBalanced, mechanism.LevelLight}

// presetFamilies are the study families of the on-device mechanisms
// with presets: the privacy ratio their ε is matched by ("custext" has
// none: its ε is in the units of its utility, word-level, so Matched is
// NaN as on its own grid).
var presetFamilies = map[string]string{
	mechanism.NameBRR: "hamming", mechanism.NameTEMHamming: "hamming", mechanism.NameSanText: "hamming",
	mechanism.Name1DG: "lists", mechanism.Name1DT: "lists", mechanism.NameCusText: "custext",
}

// presetSpec runs an on-device mechanism (mechanism.New, all outputs
// allowed, as in the papers' protocol) at the asset's presets; Matched is
// the P_avg-matched Euclidean ε (NaN for CusText).
func presetSpec(env *Env, name string) (Spec, error) {
	family := presetFamilies[name]
	if family == "" {
		return Spec{}, fmt.Errorf("no presets for study mechanism %q (want brr, tem-hamming, santext, 1dg, 1dt or custext)", name)
	}
	if family == "lists" && len(env.Asset.Lists) == 1 {
		family = "list"
	}
	// Pooled as on their own grids: Config.PoolK applies to the
	// Hamming-scan mechanisms, whose draws are the expensive ones.
	s := Spec{Family: family, Pooled: family == "hamming"}
	for _, level := range PresetLevels {
		eps, err := mechanism.Preset(env.Asset, name, level)
		if err != nil {
			return Spec{}, err
		}
		s.Eps = append(s.Eps, eps)
		if family == "custext" {
			s.Matched = append(s.Matched, nan)
			continue
		}
		r, euc := env.Ratios[family], env.Ratios["euclidean"]
		s.Matched = append(s.Matched, eps*r.Avg/euc.Avg)
	}
	s.build = func(env *Env, eps float64) (sampler, error) {
		return single(mechanism.New(name, env.Asset, eps, mechanism.Options{AllowSaturated: true}))
	}
	return s, nil
}
