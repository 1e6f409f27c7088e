package pipeline

// parseJSONRecord is the fast path of the JSON-lines format: it reads a
// line that is exactly one object with the keys "user" and "text", each
// once, spelled so, whose values are strings without escapes, and
// nothing but JSON whitespace around it. That is what a data team's
// export writes, and for such a line it returns what encoding/json
// decodes (a fuzz test checks this), without its reflection and
// allocations: the user and text are substrings of line. Any other line
// (an escape, another key, a key twice, another value, anything after the
// object) returns simple false, and parseLine decodes it with encoding/json,
// whose rules and errors stay the format's. line must be valid UTF-8
// (parseLine checks it first).
func parseJSONRecord(line string) (user, text string, simple bool) {
	i := skipJSONSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return "", "", false
	}
	var haveUser, haveText bool
	for i++; ; {
		key, j, ok := jsonPlainString(line, skipJSONSpace(line, i))
		if !ok {
			return "", "", false
		}
		if j = skipJSONSpace(line, j); j >= len(line) || line[j] != ':' {
			return "", "", false
		}
		val, j, ok := jsonPlainString(line, skipJSONSpace(line, j+1))
		if !ok {
			return "", "", false
		}
		switch {
		case key == "user" && !haveUser:
			user, haveUser = val, true
		case key == "text" && !haveText:
			text, haveText = val, true
		default:
			return "", "", false
		}
		if j = skipJSONSpace(line, j); j >= len(line) {
			return "", "", false
		}
		switch line[j] {
		case ',':
			i = j + 1
			continue
		case '}':
			if skipJSONSpace(line, j+1) != len(line) || !haveUser || !haveText {
				return "", "", false
			}
			return user, text, true
		default:
			return "", "", false
		}
	}
}

// skipJSONSpace returns the index of the first byte at or after i that is
// not JSON whitespace.
func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// jsonPlainString reads the JSON string at s[i:] if it has no escape
// (and, as JSON requires, no control character): its contents and the
// index after its closing quote. ok is false for anything else.
func jsonPlainString(s string, i int) (str string, end int, ok bool) {
	if i >= len(s) || s[i] != '"' {
		return "", 0, false
	}
	for j := i + 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '"':
			return s[i+1 : j], j + 1, true
		case c == '\\' || c < 0x20:
			return "", 0, false
		}
	}
	return "", 0, false
}
