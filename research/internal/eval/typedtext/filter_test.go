package typedtext

import "testing"

func TestSeenFilter(t *testing.T) {
	f := newSeenFilter(1 << 16)
	f.addDoc("I loved this movie. It wasn't worth it, said nobody!<br /> The acting was superb and the plot kept me guessing until the end.")
	tests := []struct {
		doc  string
		want bool
	}{
		{"It wasn't worth it, said nobody", true},                          // whole sentence, 6 words
		{"it WASN'T worth it said nobody", true},                           // case and punctuation do not matter
		{"the plot kept me guessing until the end", true},                  // shares 8 words
		{"Honestly, the plot kept me guessing until the end of it.", true}, // 8-word overlap inside
		{"I loved this movie", true},                                       // 4-word sentence
		{"I loved this", false},                                            // shorter than minSentence: kept
		{"the plot kept me guessing until the finale", false},              // only 7 shared words
		{"ok lor c u there", false},                                        // unrelated
		{"", false},                                                        // nothing to compare
	}
	for _, tc := range tests {
		if got := f.seen(tc.doc); got != tc.want {
			t.Errorf("seen(%q) = %v, want %v", tc.doc, got, tc.want)
		}
	}
}

func TestSeenFilterFalsePositives(t *testing.T) {
	// With the package's size, keys of unrelated text are (almost) never
	// reported: 10,000 fresh 8-grams after 100,000 added ones.
	f := newSeenFilter(filterBits)
	for i := range 100000 {
		f.add(hashWords(kindShingle, []string{"added", string(rune('a' + i%26)), itoa(i)}))
	}
	fp := 0
	for i := range 10000 {
		if f.has(hashWords(kindShingle, []string{"fresh", itoa(i)})) {
			fp++
		}
	}
	if fp > 1 {
		t.Fatalf("%d false positives in 10,000", fp)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}
