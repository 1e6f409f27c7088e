#!/usr/bin/env bash
# Prints the version the mobile packages are stamped with (mobile.Version(),
# the Maven POM, Package.swift): $VERSION if set; else from git: a tag
# vX.Y.Z gives X.Y.Z (X.Y.Z-N-gHASH past it), no tag gives 0.0.0-gHASH,
# "-dirty" is appended for uncommitted changes; outside a git checkout, 0.0.0-dev.
# The result is checked to be a plain version string (letters, digits, . - +).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
v=${VERSION:-}
if [ -z "$v" ]; then
  if d=$(git -C "$ROOT" describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
    v=${d#v}
  elif h=$(git -C "$ROOT" describe --always --dirty 2>/dev/null); then
    v=0.0.0-g$h
  else
    v=0.0.0-dev
  fi
fi
[[ $v =~ ^[0-9A-Za-z][0-9A-Za-z.+-]{0,63}$ ]] || { echo "mobile-version: '$v' is not a usable version (letters, digits, . - +; at most 64)" >&2; exit 1; }
echo "$v"
