package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	const rev = "1d12234bbfbe1b8b75501d34bcecc1ee5ee95118"
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name     string
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"tagged module", "v1.2.3", vcs("vcs.revision", rev), "v1.2.3"},
		{"pseudo-version", "v0.0.0-20261123200435-1d12234bbfbe+dirty", nil, "v0.0.0-20261123200435-1d12234bbfbe+dirty"},
		{"devel with vcs, clean", "(devel)", vcs("vcs.revision", rev, "vcs.time", "2026-11-23T20:04:35Z", "vcs.modified", "false"), "1d12234bbfbe (2026-11-23T20:04:35Z)"},
		{"devel with vcs, dirty", "(devel)", vcs("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-11-23T20:04:35Z", "vcs.modified", "true"), "1d12234bbfbe-dirty (2026-11-23T20:04:35Z)"},
		{"time converted to UTC", "(devel)", vcs("vcs.revision", rev, "vcs.time", "2026-11-23T22:04:35+02:00"), "1d12234bbfbe (2026-11-23T20:04:35Z)"},
		{"no time", "(devel)", vcs("vcs.revision", rev, "vcs.modified", "true"), "1d12234bbfbe-dirty"},
		{"bad time dropped", "(devel)", vcs("vcs.revision", rev, "vcs.time", "yesterday"), "1d12234bbfbe"},
		{"short revision kept whole", "(devel)", vcs("vcs.revision", "abc123"), "abc123"},
		{"empty version, vcs", "", vcs("vcs.revision", rev), "1d12234bbfbe"},
		{"devel, no vcs", "(devel)", nil, Devel},
		{"go test binary", "", nil, Devel},
		{"modified alone", "(devel)", vcs("vcs.modified", "true"), Devel},
		{"non-hex revision", "(devel)", vcs("vcs.revision", "1D12234BBFBE"), Devel},
		{"revision with newline", "(devel)", vcs("vcs.revision", "1d12\n34bbfbe"), Devel},
		{"version with space", "v1.0 evil", vcs("vcs.revision", rev), "1d12234bbfbe"},
		{"version with newline", "v1.0\n", nil, Devel},
		{"overlong version", "v" + strings.Repeat("1", maxVersionLen), nil, Devel},
		{"longest version", "v" + strings.Repeat("1", maxVersionLen-1), nil, "v" + strings.Repeat("1", maxVersionLen-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/wordveil/wordveil", Version: tt.version}, Settings: tt.settings}
			if got := FromBuildInfo(bi); got != tt.want {
				t.Errorf("FromBuildInfo = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFromBuildInfoNil(t *testing.T) {
	if got := FromBuildInfo(nil); got != Devel {
		t.Errorf("FromBuildInfo(nil) = %q, want %q", got, Devel)
	}
	if got := FromBuildInfo(&debug.BuildInfo{}); got != Devel {
		t.Errorf("FromBuildInfo(zero) = %q, want %q", got, Devel)
	}
}

func TestVersion(t *testing.T) {
	if got := Version("1.4.0"); got != "1.4.0" {
		t.Errorf("Version(override) = %q, want the override", got)
	}
	// The test binary's own build information, whatever it holds, is what
	// Version reports without an override.
	bi, _ := debug.ReadBuildInfo()
	want := FromBuildInfo(bi)
	if got := Version(""); got != want || got == "" {
		t.Errorf("Version(\"\") = %q, want %q (non-empty)", got, want)
	}
}
