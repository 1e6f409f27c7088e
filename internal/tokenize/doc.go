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
//   - Linear time for every input shape: Scanner examines a bounded number
//     of bytes per input byte (6 on the worst shape tested; the tests
//     enforce 16), with or without
//     whitespace, so a 16 MiB run of emoji, NUL bytes, "a.a.a." or invalid
//     UTF-8 costs what 16 MiB of prose costs. Scanner allocates nothing;
//     Tokenize allocates only the token slice.
//
// What it does not do: segment scripts written without spaces (a Chinese
// or Thai sentence is one Word), recognise URLs without a scheme or "www."
// ("example.com" is Word, Punct, Word), or validate e-mail addresses (it
// is generous on purpose: a false positive only replaces more text).
//
// What the layout discloses, if it is kept: the number of tokens and their
// kinds, the whitespace, the punctuation characters and each word's
// capitalization class (lower, Title, UPPER). The privatizer documents this
// and can privatize punctuation too.
package tokenize
