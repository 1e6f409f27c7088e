package mechanism

import (
	"errors"
	"github.com/wordveil/wordveil/internal/keepwords"
	"math"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// SanText is TEM (Hamming)'s sampler at γ = 256: with the same seed both
// draw the same words, and its Facts are its own name over TEM's numbers.
func TestSanTextIsTEMHammingAtFullRadius(t *testing.T) {
	_, codes := syntheticCodes(40, 12, "santext")
	x := newIndex(t, codes)
	const eps = 0.7
	s, err := NewSanText(x, eps)
	if err != nil {
		t.Fatal(err)
	}
	tem, _ := newTEMHamming(x, eps, TEMOptions{Gamma: hamming.Bits})
	a := seeded.Key(stattest.Seed("same"))
	b := seeded.Key(stattest.Seed("same"))
	for i := range 2000 {
		ys, err1 := s.Privatize(i%40, a)
		yt, err2 := tem.Privatize(i%40, b)
		if err1 != nil || err2 != nil || ys != yt {
			t.Fatalf("draw %d: SanText %d (%v), TEM γ=256 %d (%v)", i, ys, err1, yt, err2)
		}
	}
	f := s.(Facts)
	pavg, ok := f.MeanDistance()
	if f.Name() != NameSanText || f.Params() != "epsilon=0.7" || !ok || pavg != hamming.MeanDistance(codes) {
		t.Errorf("facts: %q %q %v %v", f.Name(), f.Params(), pavg, ok)
	}
	if got, want := f.SaturationEpsilon(), 2*math.Log(39/SaturationTolerance); math.Abs(got-want) > 1e-12 {
		t.Errorf("saturation ε %v, want %v", got, want)
	}
}

// The saturation bound is sound and nearly tight: on a star (word 0 at
// one bit from every other word, the worst case for dmin = 1) the exact
// law keeps word 0 with probability ≥ 1 − η at SaturationEpsilon, and
// with less half a unit of ε below it (a bound that were too large by
// that much would fail here).
func TestSanTextSaturationBound(t *testing.T) {
	const n = 30
	low := make([]uint64, n)
	codes := make([]hamming.Code, n)
	for i := 1; i < n; i++ {
		low[i] = 1 << (i - 1)
		codes[i][0] = low[i]
	}
	m, err := NewSanText(newIndex(t, codes), 1)
	if err != nil {
		t.Fatal(err)
	}
	s := m.(Facts).SaturationEpsilon()
	d := hammingMatrix(low)
	for _, c := range []struct {
		eps  float64
		kept bool
	}{{s, true}, {s - 0.5, false}} {
		P, err := dpexact.SanText(d, c.eps)
		if err != nil {
			t.Fatal(err)
		}
		minKeep := 1.0
		for w := range P {
			minKeep = min(minKeep, P[w][w])
		}
		if (minKeep >= 1-SaturationTolerance) != c.kept {
			t.Errorf("ε=%v (bound %v): min P(w|w) = %v", c.eps, s, minKeep)
		}
	}
	// By name on the default asset: above the bound refused unless
	// allowed; at the bound the sampler keeps the input almost surely.
	a := defaultAsset(t)
	st, _ := New(NameSanText, a, 1, Options{})
	bound := st.(Facts).SaturationEpsilon()
	if _, err := New(NameSanText, a, bound*1.01, Options{}); !errors.Is(err, ErrEpsilonSaturated) {
		t.Errorf("above saturation: %v", err)
	}
	m, err = New(NameSanText, a, bound, Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := seeded.Key(stattest.Seed("santext-sat"))
	changed := 0
	for i := range 1000 {
		w := i * 97 % a.Len()
		if y, _ := m.Privatize(w, src); y != w {
			changed++
		}
	}
	// Expected ≤ 10 at η = 0.01 (duplicate codes aside); 30 is > 6 sd.
	if changed > 30 {
		t.Errorf("at saturation ε %v: %d of 1000 outputs changed", bound, changed)
	}
}

// SanText+ by name: only with explicit, valid options; the options are
// refused for any other mechanism.
func TestSanTextPlusOptions(t *testing.T) {
	a := defaultAsset(t)
	ok := &plusOpts{Sensitive: 0.5, P: 0.2}
	for _, c := range []struct {
		name string
		mech string
		opts *plusOpts
		want error
	}{
		{"no options", keepwords.NameSanTextPlus, nil, errNoPlusOptions},
		{"zero options", keepwords.NameSanTextPlus, &plusOpts{}, keepwords.ErrInvalidSensitive},
		{"w=1", keepwords.NameSanTextPlus, &plusOpts{Sensitive: 1, P: 0.2}, keepwords.ErrInvalidSensitive},
		{"w<0", keepwords.NameSanTextPlus, &plusOpts{Sensitive: -0.1, P: 0.2}, keepwords.ErrInvalidSensitive},
		{"w=NaN", keepwords.NameSanTextPlus, &plusOpts{Sensitive: math.NaN(), P: 0.2}, keepwords.ErrInvalidSensitive},
		{"p>1", keepwords.NameSanTextPlus, &plusOpts{Sensitive: 0.5, P: 1.5}, keepwords.ErrInvalidSampleProbability},
		{"p=NaN", keepwords.NameSanTextPlus, &plusOpts{Sensitive: 0.5, P: math.NaN()}, keepwords.ErrInvalidSampleProbability},
		{"p<0", keepwords.NameSanTextPlus, &plusOpts{Sensitive: 0.5, P: -1}, keepwords.ErrInvalidSampleProbability},
		{"valid", keepwords.NameSanTextPlus, ok, nil},
		{"p=0", keepwords.NameSanTextPlus, &plusOpts{Sensitive: 0.5}, nil},
		{"p=1", keepwords.NameSanTextPlus, &plusOpts{Sensitive: 0.5, P: 1}, nil},
	} {
		m, err := newWith(c.mech, a, 0.5, Options{}, c.opts)
		if !errors.Is(err, c.want) || (err == nil) != (m != nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if err != nil && strings.Count(err.Error(), "santext+:") > 1 {
			t.Errorf("%s: repeated prefix in %q", c.name, err)
		}
	}
	if _, err := New(NameSanText, a, math.NaN(), Options{}); !errors.Is(err, ErrInvalidEpsilon) {
		t.Errorf("santext NaN ε: %v", err)
	}
	if _, err := newSanTextPlus(nil, 1, *ok, nil); !errors.Is(err, ErrEmptyVocabulary) {
		t.Errorf("nil index: %v", err)
	}
	if _, err := NewSanText(nil, 1); !errors.Is(err, ErrEmptyVocabulary) {
		t.Errorf("nil index: %v", err)
	}
}

// SanText+'s Facts never claim a finite loss; its sensitive set is the
// top ⌈w·N⌉ ids; with p = 0 non-sensitive words are kept and sensitive
// ones always replaced by sensitive words.
func TestSanTextPlusFactsAndSensitiveSet(t *testing.T) {
	a := defaultAsset(t)
	n := a.Len()
	m, err := newWith(keepwords.NameSanTextPlus, a, 0.05, Options{}, &plusOpts{Sensitive: 0.3, P: 0})
	if err != nil {
		t.Fatal(err)
	}
	if pavg, ok := MeanDistance(m); ok || !math.IsNaN(pavg) {
		t.Errorf("SanText+ mean distance %v, %v: must be unknown", pavg, ok)
	}
	f := m.(Facts)
	if f.Name() != keepwords.NameSanTextPlus || f.Params() != "epsilon=0.05 sensitive=0.3 p=0" || f.Outputs() != nil {
		t.Errorf("facts %q %q %v", f.Name(), f.Params(), f.Outputs())
	}
	first := n - int(math.Ceil(0.3*float64(n)))
	if got := m.(*santextPlusMech).first; got != first {
		t.Fatalf("first sensitive id %d, want %d", got, first)
	}
	src := seeded.Key(stattest.Seed("santext+"))
	for _, w := range []int{0, 1, first - 1} {
		if y, err := m.Privatize(w, src); err != nil || y != w {
			t.Errorf("p=0, non-sensitive %d released as %d (%v)", w, y, err)
		}
	}
	replaced := 0
	for i := range 300 {
		w := first + i*31%(n-first)
		y, err := m.Privatize(w, src)
		if err != nil || y < first {
			t.Fatalf("sensitive %d released as %d (%v)", w, y, err)
		}
		if y != w {
			replaced++
		}
	}
	if replaced == 0 {
		t.Error("at ε=0.05 no sensitive word was replaced")
	}
	// Saturation: p above the tolerance never saturates; p = 0 does.
	hi, _ := newWith(keepwords.NameSanTextPlus, a, 0.5, Options{}, &plusOpts{Sensitive: 0.3, P: 0.2})
	if s := hi.(Facts).SaturationEpsilon(); !math.IsInf(s, 1) {
		t.Errorf("p=0.2: saturation ε %v, want +Inf", s)
	}
	if s := f.SaturationEpsilon(); math.IsInf(s, 0) || !(s > 0) {
		t.Errorf("p=0: saturation ε %v", s)
	}
}

// Restrict: SanText and SanText+ release only allowed words, and
// SanText+ never keeps an excluded non-sensitive input.
func TestSanTextRestrict(t *testing.T) {
	a := defaultAsset(t)
	n := a.Len()
	excluded := []int{0, 1, 2, 3, 5, n - 1, n - 2}
	for i := 0; i < n; i += 4 {
		excluded = append(excluded, i)
	}
	o, err := NewOutputs(n, excluded)
	if err != nil {
		t.Fatal(err)
	}
	plus := &plusOpts{Sensitive: 0.5, P: 0.1}
	for _, c := range []struct {
		name string
		plus *plusOpts
	}{
		{NameSanText, nil},
		{keepwords.NameSanTextPlus, plus},
	} {
		m, err := newWith(c.name, a, 0.3, Options{Outputs: o}, c.plus)
		if err != nil {
			t.Fatal(err)
		}
		if m.(Facts).Outputs() != o || !strings.Contains(m.(Facts).Params(), "outputs=") {
			t.Errorf("%s: outputs not reported", c.name)
		}
		src := seeded.Key(stattest.Seed("restrict/" + c.name))
		for i := range 400 {
			w := []int{0, 1, 4, 7, n / 2, n - 1}[i%6]
			y, err := m.Privatize(w, src)
			if err != nil || !o.Allowed(y) {
				t.Fatalf("%s: input %d released %d (%v)", c.name, w, y, err)
			}
			if c.name == keepwords.NameSanTextPlus && w < n/2 && y < n/2 && y != w {
				t.Fatalf("%s: non-sensitive %d replaced by non-sensitive %d", c.name, w, y)
			}
		}
		// Lifting the restriction keeps the name and parameters.
		r, err := Restrict(m, nil)
		if err != nil || r.(Facts).Name() != c.name || r.(Facts).Outputs() != nil {
			t.Errorf("%s: unrestrict: %v", c.name, err)
		}
	}
	// No sensitive word allowed: refused.
	var top []int
	for i := n / 2; i < n; i++ {
		top = append(top, i)
	}
	noSens, err := NewOutputs(n, top)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newWith(keepwords.NameSanTextPlus, a, 0.3, Options{Outputs: noSens}, plus); !errors.Is(err, ErrNoOutputs) {
		t.Errorf("no allowed sensitive word: %v", err)
	}
}

// Privatize fails closed on bad calls, with -1.
func TestSanTextPrivatizeErrors(t *testing.T) {
	_, codes := syntheticCodes(10, 8, "santext-err")
	x := newIndex(t, codes)
	s, _ := NewSanText(x, 1)
	p, _ := asMechanism(newSanTextPlus(x, 1, plusOpts{Sensitive: 0.5, P: 0.5}, nil))
	for _, m := range []Mechanism{s, p} {
		src := seeded.Key(stattest.Seed("e"))
		for _, c := range []struct {
			w    int
			want error
		}{{-1, ErrWordOutOfRange}, {10, ErrWordOutOfRange}} {
			if y, err := m.Privatize(c.w, src); y != -1 || !errors.Is(err, c.want) {
				t.Errorf("%s w=%d: %d %v", m.(Facts).Name(), c.w, y, err)
			}
		}
		if y, err := m.Privatize(0, nil); y != -1 || !errors.Is(err, ErrNilSource) {
			t.Errorf("%s nil source: %d %v", m.(Facts).Name(), y, err)
		}
	}
}

// BenchmarkSanText reports ns per word of SanText and SanText+ beside
// TEM (Hamming) in the same run, on the default asset at TEM (Hamming)'s
// balanced ε (SanText is the same sampler with no ⊥ step).
func BenchmarkSanText(b *testing.B) {
	a := defaultAsset(b)
	eps, err := Preset(a, NameTEMHamming, LevelBalanced)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		plus *plusOpts
	}{
		{NameTEMHamming, nil},
		{NameSanText, nil},
		{keepwords.NameSanTextPlus, &plusOpts{Sensitive: 0.5, P: 0.3}},
	} {
		m, err := newWith(c.name, a, eps, Options{}, c.plus)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) { benchPrivatize(b, m, NewSecureSource()) })
	}
}
