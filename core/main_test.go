package core

import (
	"os"
	"testing"
)

// TestMain keeps the default anchor (os.UserConfigDir()/wordveil) of
// every test out of the user's real configuration directory.
func TestMain(m *testing.M) {
	d, err := os.MkdirTemp("", "wordveil-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", d)
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}
