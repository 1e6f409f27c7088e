#!/usr/bin/env bash
# Runs staticcheck, at the version pinned below, over the module (or over
# the packages given as arguments). The binary is built once with the
# local Go into the cache (WORDVEIL_CACHE, default ~/.cache/wordveil) and
# rebuilt only when missing or of another version, so every run checks with
# the same rules. A finding that is deliberate carries a
# `//lint:ignore CHECK reason` comment at its line; nothing is configured
# away here.
#   scripts/staticcheck.sh [packages]   (default ./...)
# STATICCHECK_DIR=DIR runs it in DIR instead of the repository's root (the
# beam/ module: scripts/test-beam.sh).
set -euo pipefail
# v0.8.2 (staticcheck 2026.2.2) is the newest release on the Go module proxy
# (go list -m -versions honnef.co/go/tools) and the first to require Go 1.26,
# the version go.mod asks for.
VERSION=v0.8.2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WORDVEIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wordveil}
BIN=$CACHE/tools/staticcheck-$VERSION
SC=$BIN/staticcheck
if ! { [ -x "$SC" ] && "$SC" -version 2>/dev/null | grep -qF "(${VERSION#v})"; }; then
  echo "staticcheck: installing honnef.co/go/tools/cmd/staticcheck@$VERSION into $BIN" >&2
  mkdir -p "$BIN"
  # From outside the module, so its go.mod plays no part in the install.
  (cd "$BIN" && GOBIN=$BIN GOFLAGS=-mod=mod go install "honnef.co/go/tools/cmd/staticcheck@$VERSION")
fi
cd "${STATICCHECK_DIR:-$ROOT}"
if [ $# -gt 0 ]; then
  echo "staticcheck: $("$SC" -version) on $*" >&2
  exec "$SC" "$@"
fi
# Both modules: the SDK here, the research kit in research/.
echo "staticcheck: $("$SC" -version) on the SDK module and research/" >&2
"$SC" ./...
cd research && "$SC" ./...
