package mobile_test

import (
	"fmt"

	"github.com/wordveil/wordveil/mobile"
)

// The facade as an app calls it (through the Java or Swift binding). Its
// randomness always comes from the OS, so the text differs from run to run:
// only the deterministic facts of the result are printed here.
func ExampleOpenPrivatizer() {
	cfg := mobile.NewConfig() // BRR, "balanced", random-word OOV
	cfg.OOV = "placeholder"   // out-of-vocabulary tokens become "•"
	p, err := mobile.OpenPrivatizer(cfg)
	if err != nil {
		panic(err) // the message starts with a code: mobile.ErrCode(err.Error())
	}
	in := "Meet me at the station at 9, gate 4517"
	r, err := p.Privatize(in)
	if err != nil {
		panic(err) // never upload the input instead
	}
	fmt.Println("words:", r.Words, "OOV:", r.OOV, "metric:", r.Metric)
	fmt.Printf("ε = %.4f per word, %.3f in total, loss known: %v\n", r.Epsilon, r.TotalEpsilon, r.LossKnown)
	fmt.Println("differs from the input:", r.Text != in) // "4517" is not a vocabulary word: always "•"
	// Output:
	// words: 8 OOV: 1 metric: hamming
	// ε = 0.5239 per word, 4.191 in total, loss known: true
	// differs from the input: true
}

// Invalid settings are refused with a stable code, never ignored.
func ExampleErrCode() {
	cfg := mobile.NewConfig()
	cfg.Epsilon = -1
	_, err := mobile.OpenPrivatizer(cfg)
	fmt.Println(mobile.ErrCode(err.Error()))
	// Output: WV_INVALID_ARGUMENT
}
