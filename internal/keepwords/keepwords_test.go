package keepwords

import (
	"errors"
	"testing"
)

// Without package mechanism nothing is registered: the constructors fail
// closed instead of panicking on a nil function.
func TestUnavailableWithoutMechanism(t *testing.T) {
	if m, err := NewSanTextPlus(nil, 1, SanTextPlusOptions{Sensitive: 0.5}); m != nil || !errors.Is(err, ErrUnavailable) {
		t.Errorf("NewSanTextPlus: %v, %v", m, err)
	}
	if m, err := NewCusTextPlus(nil, 1); m != nil || !errors.Is(err, ErrUnavailable) {
		t.Errorf("NewCusTextPlus: %v, %v", m, err)
	}
}

func TestStopWords(t *testing.T) {
	if len(stopWords) != 317 {
		t.Errorf("%d stop words, want scikit-learn's 317", len(stopWords))
	}
	for _, w := range []string{"the", "couldn't", "bill", "fire", "system", "down"} {
		if !IsStopWord(w) {
			t.Errorf("%q is not a stop word", w)
		}
	}
	for _, w := range []string{"The", "privacy", ""} {
		if IsStopWord(w) {
			t.Errorf("%q is a stop word", w)
		}
	}
}
