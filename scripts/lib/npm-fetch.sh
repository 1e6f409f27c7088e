# npm_fetch TAG CACHE PKG VER INTEGRITY SIZE: `npm pack PKG@VER` into CACHE
# unless the tarball is already there, check its sha512 against the pin
# INTEGRITY (npm's "sha512-<base64>" form), and print the tarball's path.
# TAG prefixes the messages on stderr; SIZE is shown while downloading.
# The download lands in a scratch directory and is moved into place only
# when complete, so an interrupted fetch never leaves a partial tarball.
# Sourced by the scripts/fetch-*.sh scripts (which set -euo pipefail).
npm_fetch() {
  local tag=$1 cache=$2 pkg=$3 ver=$4 integrity=$5 size=$6
  local tgz="$cache/$pkg-$ver.tgz"
  mkdir -p "$cache"
  if [ ! -f "$tgz" ]; then
    command -v npm >/dev/null || { echo "$tag: npm is required (apt-get install npm, or Node.js from nodejs.org)" >&2; return 1; }
    echo "$tag: npm pack $pkg@$ver into $cache ($size)" >&2
    local tmp start
    start=$(date +%s)
    tmp=$(mktemp -d "$cache/.npm-fetch.XXXXXX")
    if ! (cd "$tmp" && npm pack "$pkg@$ver" --silent >/dev/null); then
      rm -rf "$tmp"
      echo "$tag: npm pack $pkg@$ver failed" >&2
      return 1
    fi
    mv "$tmp/$pkg-$ver.tgz" "$tgz"
    rm -rf "$tmp"
    echo "$tag: downloaded in $(( $(date +%s) - start )) s" >&2
  fi
  local got
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [ "$got" != "$integrity" ]; then
    echo "$tag: integrity mismatch for $tgz (delete it and run again)" >&2
    echo "  got  $got" >&2
    echo "  want $integrity" >&2
    return 1
  fi
  echo "$tgz"
}
