package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
)

// ErrChecksum is returned by ReadChecked for a file whose trailer is
// missing, malformed or does not match its body.
var ErrChecksum = errors.New("checksum mismatch or missing")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteChecked atomically replaces path with body followed by a trailer
// line "crc32c XXXXXXXX" (CRC-32C of body, lowercase hex) and a newline.
func WriteChecked(path string, body []byte, perm os.FileMode) error {
	data := fmt.Appendf(bytes.Clone(body), "\ncrc32c %08x\n", crc32.Checksum(body, castagnoli))
	return WriteFile(path, data, perm)
}

// ParseChecked returns the body of data written by WriteChecked, or
// ErrChecksum unless the trailer is exactly right: any changed, added or
// missing byte is detected (up to CRC-32C's strength).
func ParseChecked(data []byte) ([]byte, error) {
	b, ok := bytes.CutSuffix(data, []byte("\n"))
	i := bytes.LastIndexByte(b, '\n')
	if !ok || i < 0 {
		return nil, ErrChecksum
	}
	body := b[:i]
	if string(b[i+1:]) != fmt.Sprintf("crc32c %08x", crc32.Checksum(body, castagnoli)) {
		return nil, ErrChecksum
	}
	return body, nil
}
