// Package tokenize splits text into the tokens WordVeil privatizes and the
// layout it keeps, and reassembles them.
//
// Guarantees:
//
//   - Lossless: concatenating the tokens' Text gives back the input byte for
//     byte (invalid UTF-8 included), so the privatizer can keep the layout
//     exactly and replace only what must be replaced.
//   - Every byte belongs to exactly one token, and every token that could
//     carry content (Word, Number, Other) is a candidate for replacement:
//     nothing is classified as layout unless it is whitespace, a single
//     punctuation character or a single ASCII symbol. Emoji and other
//     symbols are content.
//   - E-mail addresses, URLs and tokens mixing letters and digits are one
//     Other token each, so that they are replaced whole: their inner
//     structure ("name.surname@host") is not left behind as punctuation.
//
// What the layout discloses, if it is kept: the number of tokens and their
// kinds, the whitespace, the punctuation characters and each word's
// capitalization class (lower, Title, UPPER). The privatizer documents this
// and can privatize punctuation too.
package tokenize
