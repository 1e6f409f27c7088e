#!/usr/bin/env bash
# Runs the gobind Java binding's tests (mobile/jvmtest) on an arm64 JVM under
# qemu-user: scripts/jvm-test.sh with libgojni.so cross-built for linux/arm64
# (GOARCH=arm64, CC=aarch64-linux-gnu-gcc) and Debian's arm64 OpenJDK 17 run
# by qemu-aarch64, with -Dwordveil.profile=emulated (fewer iterations of the
# loop-heavy tests, same assertions: each call costs ~50x more under qemu).
#
# The arm64 JRE and the libraries it needs are pinned in scripts/pins/mobile.lock
# (group arm64jvm, sha256-verified by scripts/fetch-pinned.sh) and unpacked with
# dpkg-deb -x into a sysroot under CACHE; the system's dpkg is not touched.
# qemu-user and gcc-aarch64-linux-gnu are installed with apt-get if missing
# (as root; otherwise the script says what to install).
#
# Usage: scripts/jvm-test-arm64.sh [MAIN-CLASS [ARGS...]]   (as scripts/jvm-test.sh)
# Env:   WORDVEIL_CACHE, JVM_TIMEOUT (default 900 s), WORK (default .cache/jvm-arm64)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WORDVEIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wordveil}
die() { echo "jvm-test-arm64: $*" >&2; exit 1; }

need=()
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu)
command -v dpkg-deb >/dev/null || die "dpkg-deb not found: the pinned arm64 JRE is a Debian package"
if [ ${#need[@]} -gt 0 ]; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null ||
    die "missing ${need[*]}: sudo apt-get install ${need[*]}"
  echo "jvm-test-arm64: installing ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The sysroot: the pinned .debs unpacked, rebuilt when the pins change.
SYS=$CACHE/sysroot-arm64
mapfile -t DEBS < <("$ROOT/scripts/fetch-pinned.sh" arm64jvm "$CACHE" | cut -f2)
stamp=$(printf '%s\n' "${DEBS[@]##*/}" | sha256sum | cut -c1-16)
if [ ! -f "$SYS/.from" ] || [ "$(cat "$SYS/.from")" != "$stamp" ]; then
  rm -rf "$SYS"; mkdir -p "$SYS"
  for d in "${DEBS[@]}"; do dpkg-deb -x "$d" "$SYS"; done
  # Absolute symlinks (the JRE's conf/ points into /etc/java-17-openjdk) would
  # resolve on the host: point them into the sysroot.
  find "$SYS" -type l -lname '/*' | while read -r l; do ln -sfn "$SYS$(readlink "$l")" "$l"; done
  echo "$stamp" > "$SYS/.from"
fi
JAVA=$(ls "$SYS"/usr/lib/jvm/java-17-openjdk-arm64/bin/java 2>/dev/null) || die "no java in $SYS"
arch=$(qemu-aarch64 -L "$SYS" "$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *os.arch = //p' || true)
[ "$arch" = aarch64 ] || die "the arm64 JVM does not start under qemu-aarch64 (os.arch '$arch')"
echo "jvm-test-arm64: $(qemu-aarch64 -L "$SYS" "$JAVA" -version 2>&1 | sed -n 2p) (os.arch $arch) under $(qemu-aarch64 --version | head -1)"

WORK=${WORK:-$ROOT/.cache/jvm-arm64} JVM_GOARCH=arm64 CC=aarch64-linux-gnu-gcc AR=aarch64-linux-gnu-ar \
  JVM_JAVA="qemu-aarch64 -L $SYS $JAVA" JVM_OPTS="-Dwordveil.profile=emulated ${JVM_OPTS:-}" \
  JVM_TIMEOUT=${JVM_TIMEOUT:-900} exec "$ROOT/scripts/jvm-test.sh" "$@"
