package memo

import "fmt"

// fileName is the name of identity canon's file under secret: keyed, so
// that without the secret it says nothing about the mechanism, ε or asset
// (a name derived from the identity alone could be tested against the few
// known mechanisms and assets), and fixed, so that every process finds the
// same file and a damaged identity MAC at that name is damage, never a
// second memo. A wrong secret finds another name, but Open checks every
// file's header against the secret first and fails with ErrWrongSecret.
func fileName(secret, canon []byte) (string, error) {
	id, err := keyedID(secret, "file name", canon)
	return fmt.Sprintf("%s%x%s", filePrefix, id, fileSuffix), err
}

// bindingName is the memo's name in a privacy ledger (BindingName).
func bindingName(secret, canon []byte) (string, error) {
	id, err := keyedID(secret, "ledger binding", canon)
	return fmt.Sprintf("memo %x", id), err
}
