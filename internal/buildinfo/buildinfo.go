// Package buildinfo says which build of WordVeil is running, for
// `wordveil version` and mobile.Version, from the build information the Go
// toolchain embeds in every binary (runtime/debug.ReadBuildInfo).
//
// It guarantees a non-empty, single-line answer made only of printable ASCII:
// a release override when the caller has one, else the main module's version
// (a tagged version, or the pseudo-version the toolchain derives from the
// VCS), else the VCS revision and commit time, else Devel. Values that do not
// look like what the toolchain writes are ignored rather than printed.
//
// It does not guarantee that the answer identifies the source exactly: a
// build with -buildvcs=false (as gomobile bind and `go test` binaries are)
// knows no revision, and "-dirty" says only that the tree had uncommitted
// changes, not which.
package buildinfo

import (
	"runtime/debug"
	"sync"
	"time"
)

// Devel is the version of a build that knows neither its module version nor
// its VCS revision.
const Devel = "devel"

// revisionLen is how many hex digits of the revision are shown: as many as
// a Go pseudo-version carries, enough to be unique in any real repository.
const revisionLen = 12

// maxVersionLen bounds an accepted module version; real ones are far shorter.
const maxVersionLen = 128

// fromBinary is FromBuildInfo of the running binary, read once: the build
// information cannot change while the program runs.
var fromBinary = sync.OnceValue(func() string {
	bi, _ := debug.ReadBuildInfo()
	return FromBuildInfo(bi)
})

// Version returns override when it is not empty (a release build sets it
// with -ldflags "-X ..."), else the running binary's version (FromBuildInfo).
func Version(override string) string {
	if override != "" {
		return override
	}
	return fromBinary()
}

// FromBuildInfo returns the version bi describes: bi.Main.Version unless it
// is empty or "(devel)"; else the first 12 hex digits of vcs.revision, with
// "-dirty" when vcs.modified is true and the commit time (vcs.time, in UTC)
// in parentheses when known, as in "1d12234bbfbe-dirty
// (2026-11-23T20:04:35Z)"; else Devel. A nil bi gives Devel.
func FromBuildInfo(bi *debug.BuildInfo) string {
	if bi == nil {
		return Devel
	}
	if v := bi.Main.Version; v != "(devel)" && plainVersion(v) {
		return v
	}
	var rev, when string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if !hexDigits(rev) {
		return Devel
	}
	v := rev[:min(len(rev), revisionLen)]
	if modified {
		v += "-dirty"
	}
	if t, err := time.Parse(time.RFC3339, when); err == nil {
		v += " (" + t.UTC().Format(time.RFC3339) + ")"
	}
	return v
}

// plainVersion reports whether v is a non-empty module version of the
// characters semantic versions use (letters, digits, '.', '-', '+').
func plainVersion(v string) bool {
	if v == "" || len(v) > maxVersionLen {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == '+') {
			return false
		}
	}
	return true
}

// hexDigits reports whether s is non-empty and all lower-case hex digits,
// as git and Mercurial revisions are.
func hexDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
