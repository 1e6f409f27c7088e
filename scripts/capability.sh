#!/usr/bin/env bash
# What this machine can run, detected by trying it, for the `make test`
# targets whose checks depend on the machine rather than on the code.
#
#   scripts/capability.sh has CAP      exit 0 if the machine has CAP; else exit 1
#                                      and say on stderr what is missing
#   scripts/capability.sh exec CAP     print the -exec wrapper that runs a binary
#                                      built for CAP's GOARCH ("" for native)
#   scripts/capability.sh notrun TARGET WHAT
#                                      say plainly that TARGET could not run WHAT,
#                                      and record it for `make test`'s summary
#   scripts/capability.sh run-if "CAP..." TARGET WHAT -- COMMAND...
#                                      run COMMAND if the machine has every CAP,
#                                      else `notrun TARGET WHAT` (and succeed)
#   scripts/capability.sh summary      print the recorded lines (and clear them)
#   scripts/capability.sh reset        clear them
#
# CAP is one of
#   386     a linux/386 Go binary runs: natively (a kernel with 32-bit
#           emulation), else under qemu-i386
#   arm64   a linux/arm64 Go binary runs under qemu-aarch64
#   jdk     javac, jar and java run (a Java 17 JDK with jni.h)
#   apt     apt-get can install packages (root, apt-get present)
#   debian  apt-get and dpkg-deb are present (the pinned Debian downloads of
#           scripts/fetch-pinned.sh, which keep their own apt state)
#   cmd:X   the command X is on PATH
#   X|Y     either of the capabilities X and Y (e.g. "cmd:xmllint|apt": the
#           tool, or the means to install it)
# A binary is "run" when a tiny Go program built for that GOARCH prints what
# it should: a kernel that refuses the format ("exec format error") or an
# emulator that crashes on Go's runtime (qemu-i386 does, on some hosts)
# count as missing, so the targets fall back instead of failing.
#
# Force a capability off to exercise the fallback: WORDVEIL_NO_386=1,
# WORDVEIL_NO_ARM64=1, WORDVEIL_NO_JDK=1, WORDVEIL_NO_APT=1 (any non-empty
# value). WORDVEIL_NO_386_NATIVE=1 leaves only the qemu-i386 path for 386.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NOTRUN=${WORDVEIL_NOTRUN_FILE:-$ROOT/.cache/make-test-notrun.txt}
export PATH="$PATH:/usr/local/go/bin"

# hello GOARCH WRAPPER...: build a Go program for GOARCH and run it (through
# WRAPPER if given); succeed if it printed the expected line.
hello() {
  local arch=$1; shift
  local d; d=$(mktemp -d)
  mkdir -p "$d/src"
  cat > "$d/src/main.go" <<'GO'
package main

import (
	"fmt"
	"runtime"
	"strconv"
)

func main() {
	// A map, a goroutine and a channel: the runtime's scheduler and
	// allocator, which a broken emulator fails on, not just a write.
	m := map[int]string{}
	ch := make(chan int)
	go func() { ch <- 1 << 20 }()
	for i := range 1000 {
		m[i] = strconv.Itoa(i)
	}
	fmt.Println("capability-ok", runtime.GOARCH, len(m), <-ch)
}
GO
  printf 'module capability\n\ngo 1.22\n' > "$d/src/go.mod"
  local ok=1
  if (cd "$d/src" && GOWORK=off GOFLAGS= CGO_ENABLED=0 GOOS=linux GOARCH=$arch go build -o "$d/hello" . 2>"$d/build.log"); then
    if out=$(timeout 60 "$@" "$d/hello" 2>"$d/run.log") && [ "$out" = "capability-ok $arch 1000 1048576" ]; then
      ok=0
    else
      echo "capability: a linux/$arch Go program ${*:+under $* }did not run: $(head -c 300 "$d/run.log" | tr '\n' ' ')${out:+ (printed: $out)}" >&2
    fi
  else
    echo "capability: could not build a linux/$arch Go program: $(head -c 300 "$d/build.log")" >&2
  fi
  rm -rf "$d"
  return $ok
}

# wrapper CAP prints the command that runs CAP's binaries, or fails.
wrapper() {
  case $1 in
  386)
    if [ -n "${WORDVEIL_NO_386:-}" ]; then echo "capability: 386 forced off (WORDVEIL_NO_386)" >&2; return 1; fi
    if [ -z "${WORDVEIL_NO_386_NATIVE:-}" ] && hello 386; then echo ""; return 0; fi
    if command -v qemu-i386 >/dev/null && hello 386 qemu-i386; then echo qemu-i386; return 0; fi
    echo "capability: this machine runs no linux/386 binary (not natively${WORDVEIL_NO_386_NATIVE:+: forced off by WORDVEIL_NO_386_NATIVE}, e.g. a kernel without 32-bit emulation; not under a working qemu-i386)" >&2
    return 1 ;;
  arm64)
    if [ -n "${WORDVEIL_NO_ARM64:-}" ]; then echo "capability: arm64 forced off (WORDVEIL_NO_ARM64)" >&2; return 1; fi
    command -v qemu-aarch64 >/dev/null || { echo "capability: qemu-aarch64 not found (apt-get install qemu-user)" >&2; return 1; }
    hello arm64 qemu-aarch64 || return 1
    echo qemu-aarch64 ;;
  *) echo "capability: no wrapper for '$1'" >&2; return 2 ;;
  esac
}

has() {
  case $1 in
  386 | arm64) wrapper "$1" >/dev/null ;;
  jdk)
    if [ -n "${WORDVEIL_NO_JDK:-}" ]; then echo "capability: JDK forced off (WORDVEIL_NO_JDK)" >&2; return 1; fi
    local t
    for t in javac jar java; do
      command -v $t >/dev/null || { echo "capability: '$t' not found (a Java 17 JDK: apt-get install openjdk-17-jdk-headless)" >&2; return 1; }
    done
    javac -version >/dev/null 2>&1 && java -version >/dev/null 2>&1 ||
      { echo "capability: javac or java does not run" >&2; return 1; }
    local jh; jh=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    [ -f "$jh/include/jni.h" ] || { echo "capability: no jni.h under $jh (need a JDK, not a JRE)" >&2; return 1; } ;;
  *"|"*)
    local alt
    for alt in ${1//|/ }; do has "$alt" 2>/dev/null && return 0; done
    echo "capability: none of ${1//|/, }" >&2; return 1 ;;
  cmd:*)
    command -v "${1#cmd:}" >/dev/null || { echo "capability: '${1#cmd:}' not found" >&2; return 1; } ;;
  debian)
    command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
      { echo "capability: apt-get and dpkg-deb are needed for the pinned Debian packages" >&2; return 1; } ;;
  apt)
    if [ -n "${WORDVEIL_NO_APT:-}" ]; then echo "capability: apt forced off (WORDVEIL_NO_APT)" >&2; return 1; fi
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null ||
      { echo "capability: cannot install packages (needs root and apt-get)" >&2; return 1; } ;;
  *) echo "capability: unknown capability '$1' (386, arm64, jdk, apt, debian, cmd:X, X|Y)" >&2; return 2 ;;
  esac
}

case ${1:-} in
has) has "${2:?capability name}" ;;
exec) wrapper "${2:?capability name}" ;;
notrun)
  target=${2:?target}; what=${3:?what}
  mkdir -p "$(dirname "$NOTRUN")"
  echo "$target: NOT RUN on this machine: $what" | tee -a "$NOTRUN" >&2 ;;
run-if)
  caps=${2?caps}; target=${3:?target}; what=${4:?what}; shift 4
  [ "${1:-}" = -- ] && shift
  [ $# -gt 0 ] || { echo "capability: run-if: no command" >&2; exit 2; }
  missing=
  for c in $caps; do
    has "$c" || missing="$missing $c"
  done
  if [ -z "$missing" ]; then exec "$@"; fi
  "$0" notrun "$target" "$what (missing:$missing; see the reason above)" ;;
summary)
  if [ -s "$NOTRUN" ]; then
    echo "make test: passed, but these checks could NOT run on this machine (see each target's output above):"
    sed 's/^/  - /' "$NOTRUN"
  fi
  rm -f "$NOTRUN" ;;
reset) rm -f "$NOTRUN" ;;
*) sed -n '2,/^set -e/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
