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
//   - English clitics are cut off the end of a Word as GloVe's (Penn
//     Treebank) tokenizer cuts them: "don't" is "do" "n't", "can't" "ca"
//     "n't", "I'm" "I" "'m", "John’s" "John" "’s" (clitic.go lists the
//     rules). The pieces are Word tokens marked Host and Clitic, and each
//     carries the whole word (Token.Whole), so a caller can look each piece
//     up on its own and still treat the word as one. Key folds the curly
//     apostrophe, so "n’t" looks up "n't". A word whose apostrophes end no
//     clitic ("rock'n'roll", "o'clock") stays whole; a leading apostrophe
//     ("'tis", "'s" alone) is punctuation, as before.
//   - Numbers are digits with single inner '.' or ',' between digits
//     ("5", "1990", "3.5", "1,000"): one Number token each. Digits next to
//     letters make one Other token ("10am", "2nd", "1990s"); an apostrophe
//     after a number joins nothing ("5's" is "5" "'" "s").
//   - Linear time for every input shape: Scanner examines a bounded number
//     of bytes per input byte (8 on the worst shape tested, "'s's's...";
//     the tests enforce 16), with or without whitespace, so a 16 MiB run of
//     emoji, NUL bytes, "a.a.a.", invalid UTF-8 or one word made of clitics
//     costs what 16 MiB of prose costs. Scanner allocates nothing;
//     Tokenize allocates only the token slice.
//
// What it does not do: segment scripts written without spaces (a Chinese
// or Thai sentence is one Word), split other Treebank forms ("cannot",
// "gonna" stay whole) or clitics inside a word ("don't-care" is one Word),
// recognise URLs without a scheme or "www." ("example.com" is Word, Punct,
// Word), or validate e-mail addresses (it is generous on purpose: a false
// positive only replaces more text).
//
// What the layout discloses, if it is kept: the number of tokens and their
// kinds (a word cut into pieces is one token per piece), the whitespace,
// the punctuation characters and each word's capitalization class (lower,
// Title, UPPER). The privatizer documents this and can privatize
// punctuation too.
package tokenize
