package typedtext

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Profane is one entry of the cuss map. Rating is cuss's "sureness" that
// the word is used as profanity: 0 (rarely; e.g. "african", "angry"), 1
// (maybe) or 2 (likely). It is not a measure of how vulgar the word is.
type Profane struct {
	Word   string
	Rating int
}

const (
	cussMember   = "package/index.js"
	cussHeader   = "export const cuss = {"
	maxCussBytes = 16 << 20
	// maxCussWords bounds the entries kept; the pinned map has 1,795.
	maxCussWords = 1 << 20
)

// Offensive returns the English entries of the pinned cuss tarball in
// cacheDir, in file order (alphabetical). A caller building an output
// exclusion list chooses the minimum rating; entries may contain spaces
// ("arse bandit"), which a single-word vocabulary never matches.
func Offensive(cacheDir string) ([]Profane, error) {
	var out []Profane
	found := false
	err := walkCached(cacheDir, cussFile, func(n string) bool { return n == cussMember },
		func(_ string, r io.Reader) error {
			found = true
			var err error
			out, err = parseCuss(r)
			return err
		})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%w: %s has no %s", ErrFormat, cussFile, cussMember)
	}
	return out, nil
}

// parseCuss reads the ES module of cuss: lines before cussHeader are
// skipped (the doc comment); then one `key: rating,` per line, the key a
// bare identifier or a quoted string, until a line "}". Nothing may follow
// but blank lines.
func parseCuss(r io.Reader) ([]Profane, error) {
	sc := bufio.NewScanner(newCapped(r, maxCussBytes, cussMember))
	sc.Buffer(make([]byte, 0, 4096), maxLineBytes)
	var out []Profane
	state := 0 // 0 before the header, 1 in the map, 2 after it
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		switch state {
		case 0:
			if s == cussHeader {
				state = 1
			}
			continue
		case 2:
			if s != "" {
				return nil, fmt.Errorf("%w: line %d: text after the map", ErrFormat, line)
			}
			continue
		}
		if s == "}" {
			state = 2
			continue
		}
		p, err := parseCussEntry(s)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, line, err)
		}
		if len(out) == maxCussWords {
			return nil, fmt.Errorf("%w: more than %d entries", ErrFormat, maxCussWords)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if state != 2 {
		return nil, fmt.Errorf("%w: no complete %q map", ErrFormat, cussHeader)
	}
	return out, nil
}

// parseCussEntry parses `key: rating` with an optional trailing comma.
func parseCussEntry(s string) (Profane, error) {
	s = strings.TrimSuffix(s, ",")
	colon := strings.LastIndexByte(s, ':')
	if colon < 0 {
		return Profane{}, fmt.Errorf("entry %q has no colon", clip(s))
	}
	key, val := strings.TrimSpace(s[:colon]), strings.TrimSpace(s[colon+1:])
	if len(val) != 1 || val[0] < '0' || val[0] > '2' {
		return Profane{}, fmt.Errorf("entry %q: rating %q, want 0, 1 or 2", clip(s), clip(val))
	}
	word, err := cussKey(key)
	if err != nil {
		return Profane{}, err
	}
	return Profane{Word: word, Rating: int(val[0] - '0')}, nil
}

// cussKey decodes a bare or quoted JavaScript property name; quoted names
// may escape the quote or a backslash, nothing else.
func cussKey(k string) (string, error) {
	if k == "" {
		return "", fmt.Errorf("empty key")
	}
	q := k[0]
	if q != '\'' && q != '"' {
		for i := 0; i < len(k); i++ {
			c := k[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$') {
				return "", fmt.Errorf("bare key %q has a character that needs quotes", clip(k))
			}
		}
		return k, nil
	}
	if len(k) < 3 || k[len(k)-1] != q {
		return "", fmt.Errorf("key %q: bad quoting", clip(k))
	}
	var b strings.Builder
	body := k[1 : len(k)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 == len(body) || (body[i+1] != q && body[i+1] != '\\') {
				return "", fmt.Errorf("key %q: unsupported escape", clip(k))
			}
			i++
			b.WriteByte(body[i])
		case c == q:
			return "", fmt.Errorf("key %q: unescaped quote", clip(k))
		default:
			b.WriteByte(c)
		}
	}
	if strings.TrimSpace(b.String()) == "" {
		return "", fmt.Errorf("key %q is blank", clip(k))
	}
	return b.String(), nil
}
