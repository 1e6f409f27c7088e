package main

import (
	"encoding/hex"
	"fmt"
	"io"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/ctxattack"
)

// contextResults is the committed measurement of the context attacker
// (`wordveil-research eval context`, minutes of CPU), rendered here so
// that make check-docs stays fast.
var contextResults = "docs/eval/context-attack.jsonl"

// contextCost is what the measurement took, as measured (wall clock).
const contextCost = "5 min 23 s wall on this project's 2-core machine shared with other work, load ≈ 6"

// contextAttack writes the context attacker's table from the committed
// results: per mechanism and level, the one-word and the context
// attacker's top-1 on the same draws, their difference, and the pruning
// check. Results measured on another asset (other presets) are an
// error, so that a page with stale figures cannot be generated.
func contextAttack(out io.Writer, a *wva.Asset, path string) error {
	recs, err := ctxattack.Read(path)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s: no records (run wordveil-research eval context)", path)
	}
	run := recs[0].Run
	if sum := a.SHA256(); run.AssetSHA256 != hex.EncodeToString(sum[:]) {
		return fmt.Errorf("%s was measured on another asset (SHA-256 %s, not the embedded %s's); rerun wordveil-research eval context", path, run.AssetSHA256, a.Header.Name)
	}
	fmt.Fprintf(out, "\n## An attacker who reads the whole sentence\n\n"+
		"The attacker above sees one released word. This one sees the whole released segment: it knows the same law "+
		"Pr[M(w) = y] (the same columns; for BRR the same trained model), holds a bigram language model of English, and decodes "+
		"the most probable input sentence, LM(w_1…w_n)·Π Pr[M(w_i) = y_i], by Viterbi over candidates at each position: the K words "+
		"of largest one-word posterior and the K words the context makes most probable (the model's prediction from the words "+
		"before, times the law) (research/internal/eval/ctxattack); \"per word\" guesses each word by its posterior "+
		"given the whole segment under the same model (forward–backward), which is the better guess for top-1 per word. Top-1 is "+
		"the share of input words recovered; the one-word attacker is scored on the same draws. Language model: %s. Text: %s. "+
		"Intervals are 95%%, cluster-robust (the words of one segment are not independent); a gain is that attacker's top-1 minus "+
		"the one-word attacker's, with its paired interval. "+
		"\"In the candidates\" is the share of words whose input is among the candidates (the most this decoder can recover) and "+
		"\"mass outside\" the mean one-word posterior mass the pruning drops. ≥: BRR's law has no closed form, so both attackers "+
		"use a trained model, a lower bound. Measured by `%s` (%s); this table is rendered from its results file, %s.\n\n",
		run.LMText, run.HeldOut, run.Command, contextCost, path)
	fmt.Fprintf(out, "| mechanism | level | ε | words | one-word top-1 | context top-1: sentence | gain | context top-1: per word | gain | in the candidates | mass outside |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range recs {
		ge := ""
		if r.LowerBound {
			ge = "≥ "
		}
		fmt.Fprintf(out, "| %s | %s | %.4g | %d | %s%s | %s%s | %s | %s%s | %s | %.3f | %.3f |\n", r.Mechanism, r.Level, r.Epsilon, r.Tokens,
			ge, rate(r.OneWord), ge, rate(r.Context), gain(r.Gain), ge, rate(r.PerWord), gain(r.PerWordGain), r.InCandidates.Rate, r.PrunedMass)
	}
	k := recs[0].K
	fmt.Fprintf(out, "\nK = %d. How context can help: 1-DG, 1-DT and CusText replace a word by a near neighbour, so the released "+
		"sentence still reads like its input and the model can pick the input among the few words the law allows; the Hamming "+
		"mechanisms (BRR, TEM-Hamming, SanText) either keep a word or release one far away in code space, so a replaced word's "+
		"neighbours are mostly replaced too and the law spreads the input over thousands of words. Where the mass outside is large (the Hamming mechanisms, whose posterior is spread over many words at "+
		"equal code distance, and every mechanism at strong, where the law is nearly flat over a word's lists), the decoder cannot reach many inputs and its rate says little about the best attacker with context; "+
		"where it is near 0, the pruning costs next to nothing. This attacker is one valid attacker, not the best: a trigram model, "+
		"more candidates, or a model of the text's own genre may recover more.\n", k)
	return nil
}

func gain(r ctxattack.Rate) string { return fmt.Sprintf("%+.3f [%+.3f, %+.3f]", r.Rate, r.Lo, r.Hi) }

func rate(r ctxattack.Rate) string { return fmt.Sprintf("%.3f [%.3f, %.3f]", r.Rate, r.Lo, r.Hi) }
