#!/usr/bin/env bash
# Builds the gobind pinned in go.mod (tool directive) for the HOST and prints
# its path. `go tool gobind` cannot be used with GOOS=android set (go tool
# would build gobind itself for android), so build it once with the host's
# GOOS/GOARCH into the ignored .cache/ directory.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/.cache/tools}
mkdir -p "$OUT"
(cd "$ROOT" && env -u GOOS -u GOARCH CGO_ENABLED=0 go build -buildvcs=false -o "$OUT/gobind" golang.org/x/mobile/cmd/gobind)
echo "$OUT/gobind"
