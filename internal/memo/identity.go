package memo

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// maxIdentityField bounds Mechanism and Params, so that the canonical
// encoding stays small.
const maxIdentityField = 4096

// Identity says what a memo's responses are valid for: a response drawn
// for one mechanism, ε or asset is meaningless (and unsafe) for another.
type Identity struct {
	Mechanism string   // e.g. "brr"
	Params    string   // every parameter, canonical text, e.g. "epsilon=0.4845"; the caller builds it
	Asset     [32]byte // SHA-256 of the asset file
}

func (id Identity) validate() error {
	switch {
	case id.Mechanism == "":
		return fmt.Errorf("%w: identity without a mechanism", ErrInvalid)
	case len(id.Mechanism) > maxIdentityField || len(id.Params) > maxIdentityField:
		return fmt.Errorf("%w: identity field longer than %d bytes", ErrInvalid, maxIdentityField)
	case !utf8.ValidString(id.Mechanism) || !utf8.ValidString(id.Params):
		return fmt.Errorf("%w: identity is not valid UTF-8", ErrInvalid)
	case id.Asset == [32]byte{}:
		return fmt.Errorf("%w: identity without an asset hash", ErrInvalid)
	}
	return nil
}

// canonical encodes id unambiguously: each string is length-prefixed, so
// no two identities share an encoding (plain concatenation would let
// ("ab","c") and ("a","bc") collide).
func (id Identity) canonical() []byte {
	b := make([]byte, 0, 64+len(id.Mechanism)+len(id.Params))
	b = append(b, "wordveil memo identity v1\x00"...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(id.Mechanism)))
	b = append(b, id.Mechanism...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(id.Params)))
	b = append(b, id.Params...)
	return append(b, id.Asset[:]...)
}
