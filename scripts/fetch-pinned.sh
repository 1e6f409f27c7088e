#!/usr/bin/env bash
# Downloads the pinned inputs of one group of scripts/pins/mobile.lock into
# the cache and verifies each file's sha256; prints "name<TAB>path" for each.
#
#   scripts/fetch-pinned.sh GROUP [CACHE]     GROUP: android | arm64jvm | pomxsd
#
# Kinds: npm (npm pack NAME@VERSION), deb (apt-get download NAME:ARCH=VERSION),
# src (apt-get source --download-only NAME=VERSION; the .orig tarball is the
# pinned file). Debian packages come from bookworm main through a private apt
# state in CACHE/apt (its own sources list with deb-src lines, amd64 + arm64):
# nothing of the system's apt configuration or dpkg database changes.
# A file already in the cache with the right sha256 is not downloaded again;
# a wrong sha256 or a version the archive no longer has stops with a message.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GROUP=${1:?usage: scripts/fetch-pinned.sh android|arm64jvm|pomxsd [CACHE]}
CACHE=${2:-${WORDVEIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wordveil}}
LOCK=${WORDVEIL_PINS:-$ROOT/scripts/pins/mobile.lock}   # WORDVEIL_PINS: another lock file (to test this script)
OUT=$CACHE/pinned
APTDIR=$CACHE/apt
mkdir -p "$OUT"

die() { echo "fetch-pinned: $*" >&2; exit 1; }

entries=$(awk -v g="$GROUP" '$1 == g && $0 !~ /^#/' "$LOCK")
[ -n "$entries" ] || die "no group '$GROUP' in scripts/pins/mobile.lock"

apt_ready=
apt_init() { # in this shell, before any apt-get "${APT_OPTS[@]}" (subshells do not carry it back)
  if [ -z "$apt_ready" ]; then
    command -v apt-get >/dev/null || die "apt-get not found: the pinned Debian packages need a Debian or Ubuntu machine"
    mkdir -p "$APTDIR/lists/partial" "$APTDIR/archives/partial" "$APTDIR/etc"
    local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
    [ -f "$keyring" ] || die "$keyring not found (apt-get install debian-archive-keyring)"
    # The machine's own Debian sources (its mirror and suites, security
    # included), with deb-src added: no archive address is written here.
    rm -rf "$APTDIR/etc/sources.list.d"; mkdir -p "$APTDIR/etc/sources.list.d"
    : > "$APTDIR/etc/sources.list"
    if [ -f /etc/apt/sources.list ]; then
      awk '/^deb /{print; sub(/^deb /, "deb-src "); print}' /etc/apt/sources.list > "$APTDIR/etc/sources.list"
    fi
    for f in /etc/apt/sources.list.d/*.sources; do
      [ -f "$f" ] || continue
      sed -E 's/^Types:[[:space:]]*deb[[:space:]]*$/Types: deb deb-src/' "$f" > "$APTDIR/etc/sources.list.d/$(basename "$f")"
    done
    [ -s "$APTDIR/etc/sources.list" ] || ls "$APTDIR/etc/sources.list.d/"*.sources >/dev/null 2>&1 ||
      die "no Debian sources configured in /etc/apt (sources.list or sources.list.d/*.sources)"
    : > "$APTDIR/status"
    APT_OPTS=(-o APT::Sandbox::User=root -o "Dir::State=$APTDIR" -o "Dir::State::Lists=$APTDIR/lists"
      -o "Dir::State::status=$APTDIR/status" -o "Dir::Cache=$APTDIR" -o "Dir::Cache::archives=$APTDIR/archives"
      -o "Dir::Etc::sourcelist=$APTDIR/etc/sources.list" -o "Dir::Etc::sourceparts=$APTDIR/etc/sources.list.d"
      -o APT::Architecture=amd64 -o APT::Architectures::=amd64 -o APT::Architectures::=arm64)
    [ "$(id -u)" = 0 ] || APT_OPTS[1]=APT::Sandbox::User=$(id -un)
    echo "fetch-pinned: apt-get update (private lists in $APTDIR)" >&2
    apt-get "${APT_OPTS[@]}" -qq update >&2 || die "apt-get update failed (network?)"
    apt_ready=1
  fi
}

# candidate prints the version the archive has now for name[:arch].
candidate() {
  apt-cache "${APT_OPTS[@]}" policy "$1${2:+:$2}" 2>/dev/null | awk '/Candidate:/{print $2}'
}

# gone handles a pinned Debian version the archive no longer serves (Debian
# replaces packages at point releases and security updates). With
# WORDVEIL_STRICT_PINS=1 that is an error. Otherwise the archive's current
# version is used: apt authenticates it through the archive's signed
# indexes, so it is still a verified download, but not the pinned file;
# a warning says how to move the pin.
gone() { # kind name version arch
  local have
  have=$(candidate "$2" "$4")
  if [ "${WORDVEIL_STRICT_PINS:-0}" = 1 ] || [ -z "$have" ] || [ "$have" = "(none)" ]; then
    die "$2 $3${4:+ ($4)} is not in the Debian archive any more (candidate now: ${have:-none}).
  Move the pin: put the new version in scripts/pins/mobile.lock, run this script again to download it,
  check the file, and record its sha256 (sha256sum CACHE/pinned/FILE)."
  fi
  echo "fetch-pinned: WARNING: $2 $3${4:+ ($4)} is gone from the archive; using $have, authenticated by apt's signed indexes but not the pinned file. Move the pin in scripts/pins/mobile.lock." >&2
  case $1 in
  deb) (cd "$OUT" && apt-get "${APT_OPTS[@]}" -qq download "$2:$4=$have" >&2) || die "apt-get download $2:$4=$have failed" ;;
  src) (cd "$OUT" && apt-get "${APT_OPTS[@]}" -qq source --download-only "$2=$have" >&2) || die "apt-get source $2=$have failed" ;;
  esac
  fallback=$have
}

sha_ok() { [ -f "$1" ] && [ "$(sha256sum < "$1" | cut -d' ' -f1)" = "$2" ]; }

while read -r _ kind name version arch sha; do
  case $kind in
  npm) file=$name-$version.tgz ;;
  deb) file=${name}_${version//:/%3a}_$arch.deb ;;
  src) v=${version#*:}; file=${name}_${v%-*}.orig.tar.xz ;;
  *) die "unknown kind '$kind' in scripts/pins/mobile.lock" ;;
  esac
  path=$OUT/$file
  if ! sha_ok "$path" "$sha"; then
    rm -f "$path"
    echo "fetch-pinned: downloading $name $version${arch:+ $arch}" >&2
    case $kind in
    npm)
      command -v npm >/dev/null || die "npm not found (apt-get install npm)"
      (cd "$OUT" && npm pack --silent "$name@$version" >/dev/null 2>&1) || die "npm pack $name@$version failed"
      ;;
    deb)
      apt_init
      (cd "$OUT" && apt-get "${APT_OPTS[@]}" -qq download "$name:$arch=$version" >&2) || gone deb "$name" "$version" "$arch"
      ;;
    src)
      apt_init
      (cd "$OUT" && apt-get "${APT_OPTS[@]}" -qq source --download-only "$name=$version" >&2) || gone src "$name" "$version" ""
      ;;
    esac
    if [ -n "${fallback:-}" ]; then
      # The archive's current version replaced the pin (see gone).
      case $kind in
      deb) path=$OUT/${name}_${fallback//:/%3a}_$arch.deb ;;
      src) v=${fallback#*:}; path=$OUT/${name}_${v%-*}.orig.tar.xz ;;
      esac
      [ -f "$path" ] || die "$name $fallback: expected $path after the download"
      echo "fetch-pinned: $name $fallback sha256 $(sha256sum < "$path" | cut -d' ' -f1)" >&2
      fallback=
      printf '%s\t%s\n' "$name" "$path"
      continue
    fi
    [ -f "$path" ] || die "$name $version: expected $path after the download"
    if ! sha_ok "$path" "$sha"; then
      got=$(sha256sum < "$path" | cut -d' ' -f1)
      mv "$path" "$path.rejected"
      die "$file: sha256 $got, but scripts/pins/mobile.lock says $sha (kept as $path.rejected; not used)"
    fi
  fi
  printf '%s\t%s\n' "$name" "$path"
done <<< "$entries"
