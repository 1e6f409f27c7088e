package memo

import (
	"encoding/binary"
	"unicode/utf8"

	"github.com/wordveil/wordveil/internal/errwrap"
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
		return errwrap.Tag(ErrInvalid, "memo: identity without a mechanism")
	case len(id.Mechanism) > maxIdentityField || len(id.Params) > maxIdentityField:
		return errwrap.Tag(ErrInvalid, "memo: identity field longer than %d bytes", maxIdentityField)
	case !utf8.ValidString(id.Mechanism) || !utf8.ValidString(id.Params):
		return errwrap.Tag(ErrInvalid, "memo: identity is not valid UTF-8")
	case id.Asset == [32]byte{}:
		return errwrap.Tag(ErrInvalid, "memo: identity without an asset hash")
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
