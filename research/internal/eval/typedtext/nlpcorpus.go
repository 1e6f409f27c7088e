package typedtext

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// heldOutFiles is how many nlp-corpus files (builds/doc-0.json …) the
// held-out set reads; the others are never opened.
const heldOutFiles = 30

// maxNLPBytes bounds one nlp-corpus file (the pinned ones have about 80 kB).
const maxNLPBytes = 16 << 20

// isHeldOutMember reports whether a tarball member is one of
// package/builds/doc-N.json with 0 <= N < heldOutFiles.
func isHeldOutMember(name string) bool {
	s, ok := strings.CutPrefix(name, "package/builds/doc-")
	if !ok {
		return false
	}
	s, ok = strings.CutSuffix(s, ".json")
	if !ok || s == "" || len(s) > 3 || (len(s) > 1 && s[0] == '0') {
		return false
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && n < heldOutFiles
}

// parseStringArray decodes a JSON array of strings incrementally and calls
// fn with each.
func parseStringArray(r io.Reader, fn func(s string) error) error {
	dec := json.NewDecoder(newCapped(r, maxNLPBytes, "nlp-corpus file"))
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for i := 0; dec.More(); i++ {
		var s *string
		if err := dec.Decode(&s); err != nil {
			return fmt.Errorf("%w: element %d: %v", ErrFormat, i, err)
		}
		if s == nil {
			return fmt.Errorf("%w: element %d is null, want a string", ErrFormat, i)
		}
		if err := fn(*s); err != nil {
			return err
		}
	}
	if err := expectDelim(dec, ']'); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: data after the array", ErrFormat)
	}
	return nil
}
