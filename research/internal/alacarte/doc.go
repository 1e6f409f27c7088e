// Package alacarte gives vectors to words that a source embedding lacks,
// by à la carte embedding (Khodak, Saunshi, Liang, Ma, Stewart and Arora,
// "A La Carte Embedding: Cheap but Effective Induction of Semantic Feature
// Vectors", ACL 2018), and measures how good the induced vectors are once
// binarized like the asset's words.
//
// The method: for a word w, u_w is the average over the occurrences of w
// in a corpus of the average source vector of the words within ±Window
// tokens (words without a source vector are skipped; an occurrence with no
// such word in its window does not count). For training words, which have
// source vectors v_w, a linear map A is fitted by weighted least squares,
// A = argmin Σ_w c_w ‖v_w − A·u_w‖²; a word without a vector then gets
// A·u_w from its own contexts.
//
// Guarantees:
//   - An Accumulator's memory is bounded by (training words + targets) ×
//     dimension, whatever the corpus size; its work is linear in tokens ×
//     window × dimension. Windows never cross documents.
//   - Results are deterministic: sums run in float64 in corpus order with
//     every product rounded explicitly (no fused multiply-add), so the same
//     source, targets, settings and documents give the same bits.
//   - Every setting is validated; nil and zero values return errors rather
//     than panic; errors wrap the sentinels of errors.go once.
//   - Evaluate never uses a held-out word's source vector for fitting or as
//     a context vector: held-out words are induced exactly as missing words
//     are.
//
// Not guaranteed: that an induced vector is good. A word seen a handful of
// times gets a noisy vector, which is why Induce leaves out words seen
// fewer than a minimum number of times and reports them; Evaluate measures
// the quality on words whose true vectors are known. Tokenization is the
// caller's: the accumulator matches tokens to source words byte for byte.
package alacarte
