package core

import (
	"os"
	"testing"
)

// TestMain keeps the default anchor (os.UserConfigDir()/wordveil) of
// every test out of the user's real configuration directory, or runs
// TestKilledMidAppend's child.
func TestMain(m *testing.M) {
	if os.Getenv(killChildEnv) != "" {
		killChild() // TestKilledMidAppend's child: its parent set XDG_CONFIG_HOME
		return
	}
	d, err := os.MkdirTemp("", "wordveil-config-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", d)
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}
