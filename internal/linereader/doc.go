// Package linereader reads lines with a bound on memory, for input that
// nobody vouches for (the CLI's stdin).
//
// Guarantees:
//
//   - A Reader never holds more than maxLine bytes of a line plus one read
//     buffer (at most 64 KiB), whatever the input: a line longer than
//     maxLine is refused with ErrLineTooLong as soon as its first maxLine
//     bytes and one more have been read, without reading on to its end.
//   - A line buffer grown past the read buffer's size by a long line is
//     dropped once that line is returned, so one long line does not keep
//     up to maxLine bytes for the life of the Reader.
//   - Lines are returned byte for byte, with their '\n' (and any '\r'
//     before it): concatenating them gives the input back.
//   - Buffered tells, without blocking, whether a complete line is already
//     waiting, so a caller can batch what a pipe has delivered and still
//     answer an interactive user line by line.
//
// What it does not do: it does not decode or validate UTF-8, strip line
// endings, resynchronise after an over-long line by itself (the error is
// final unless the caller asks SkipLine to read through the line), or make
// a Reader safe for concurrent use.
package linereader
