#!/usr/bin/env bash
# The arm64 (NEON) kernels: internal/hamming/ and research/internal/euclid/ built for arm64,
# their go vet and test binaries always, and their short tests run under
# qemu-aarch64 where it runs an arm64 Go program (scripts/capability.sh has
# arm64); where it does not, this says so plainly and records it for make
# test's summary instead of failing on the machine. Then the same packages'
# portable kernels (-tags purego) are built for arm64 too.
# Env: WORDVEIL_NO_ARM64=1 forces the run off; TIMEOUT (default 15m).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
export PATH="$PATH:/usr/local/go/bin"
GO=${GO:-go}
CAP=$ROOT/scripts/capability.sh
PKGS=(./internal/hamming/ ./research/internal/euclid/)

GOARCH=arm64 $GO vet "${PKGS[@]}"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
GOARCH=arm64 $GO test -c -o "$out/" "${PKGS[@]}"
GOARCH=arm64 $GO test -c -tags purego -o "$out/purego/" "${PKGS[@]}"
echo "test-arm64: vet and test binaries (NEON and purego) built for arm64"
if wrap=$("$CAP" exec arm64); then
  GOARCH=arm64 $GO test -short -count=1 -timeout "${TIMEOUT:-15m}" -exec "$wrap" "${PKGS[@]}"
else
  "$CAP" notrun test-arm64 "the arm64 kernels' tests under qemu-aarch64 (vet and test builds for arm64 passed; see the reason above)"
fi
