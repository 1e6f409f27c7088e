package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// record is one input record: a user's text, and where it was read.
// Source and Line identify it: they order a user's records for the cap
// (see decide) and key its seeded stream (RecordSeed).
type record struct {
	User   string // the user key, copied to the output as it is: use a pseudonym
	Source string // the input file's path, as the glob matched it
	Line   int64  // its line in Source, from 1
	Text   string // the text to privatize
}

// The input formats.
const (
	FormatJSONL = "jsonl" // one JSON object per line: {"user": "...", "text": "..."}; other keys are ignored
	FormatTSV   = "tsv"   // one record per line: the user key, a tab, the text (the rest of the line)
)

// errMalformed marks a line that is not a record of the input format.
var errMalformed = errors.New("malformed record")

// jsonRecord is the JSON-lines input. Pointers tell a missing key from an
// empty value.
type jsonRecord struct {
	User *string `json:"user"`
	Text *string `json:"text"`
}

// parseLine reads one input line (its line break removed) in format. A
// blank line is skipped (ok false, no error); anything else that is not a
// record is errMalformed, with why. The error never quotes the line: it is
// the user's text.
func parseLine(format, line string) (user, text string, ok bool, err error) {
	if strings.TrimSpace(line) == "" {
		return "", "", false, nil
	}
	if !utf8.ValidString(line) {
		return "", "", false, fmt.Errorf("%w: not valid UTF-8", errMalformed)
	}
	switch format {
	case FormatJSONL:
		if u, t, simple := parseJSONRecord(line); simple {
			user, text = u, t
		} else if user, text, err = decodeJSONRecord(line); err != nil {
			return "", "", false, err
		}
	case FormatTSV:
		var found bool
		user, text, found = strings.Cut(line, "\t")
		if !found {
			return "", "", false, fmt.Errorf("%w: no tab after the user key", errMalformed)
		}
	default:
		return "", "", false, fmt.Errorf("unknown input format %q", format)
	}
	if user == "" {
		return "", "", false, fmt.Errorf("%w: an empty user key", errMalformed)
	}
	return user, text, true, nil
}

// decodeJSONRecord decodes a JSON-lines record with encoding/json: the
// format's rules (parseJSONRecord is a fast path for the common lines).
func decodeJSONRecord(line string) (user, text string, err error) {
	var r jsonRecord
	dec := json.NewDecoder(strings.NewReader(line))
	if err := dec.Decode(&r); err != nil {
		return "", "", fmt.Errorf("%w: not a JSON object (%s)", errMalformed, jsonErrKind(err))
	}
	if dec.More() {
		return "", "", fmt.Errorf("%w: more than one JSON value on the line", errMalformed)
	}
	switch {
	case r.User == nil:
		return "", "", fmt.Errorf("%w: no \"user\" string", errMalformed)
	case r.Text == nil:
		return "", "", fmt.Errorf("%w: no \"text\" string", errMalformed)
	}
	return *r.User, *r.Text, nil
}

// jsonErrKind names a JSON decoding error's kind without its text, which
// can quote the input.
func jsonErrKind(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return "syntax error at byte " + strconv.FormatInt(se.Offset, 10)
	case errors.As(err, &te):
		return "\"" + te.Field + "\" is not a string"
	default:
		return "unexpected end"
	}
}

// trimEOL removes a line's line break ("\n" or "\r\n").
func trimEOL(l string) string {
	l = strings.TrimSuffix(l, "\n")
	return strings.TrimSuffix(l, "\r")
}
