#!/usr/bin/env bash
# Runs the gobind-generated Java binding of ./mobile on the HOST JVM
# (Linux/amd64, glibc; Java 17 JDK), without an Android SDK/NDK: the same
# Go+Java glue gomobile puts into the AAR, built as a host libgojni.so.
# Adapted from the host-JVM recipe in the design notes; self-contained.
#
# Usage: scripts/jvm-test.sh [MAIN-CLASS [ARGS...]]
#   default MAIN-CLASS: wordveil.jvmtest.BindingTest (mobile/jvmtest/)
#   e.g. scripts/jvm-test.sh wordveil.jvmtest.Measure   (figures of docs/MOBILE.md)
# Env: WORK (build dir, default .cache/jvm), JVM_TIMEOUT (seconds, default 300),
#      JAVA_HOME (default: from javac on PATH; its jni.h is used for the build).
#   For another CPU (scripts/jvm-test-arm64.sh sets these):
#      JVM_GOARCH (GOARCH of libgojni.so, default the host's), CC and AR (C compiler
#      and archiver for that GOARCH, default cc and ar), JVM_JAVA (the command that
#      runs java, split on spaces, default java), JVM_OPTS (extra JVM options).
#      JVM_EXTRA_SRC: more directories of Java sources compiled with the tests
#      (scripts/measure-mobile.sh: scripts/measure/).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MAIN=${1:-wordveil.jvmtest.BindingTest}; shift || true
W=${WORK:-$ROOT/.cache/jvm}
TESTSRC=$ROOT/mobile/jvmtest
CC=${CC:-cc}; AR=${AR:-ar}
read -r -a JAVA_CMD <<< "${JVM_JAVA:-java}"
read -r -a JAVA_OPTS <<< "${JVM_OPTS:-}"
for t in go javac "${JAVA_CMD[0]}" "$CC" "$AR"; do
  command -v "$t" >/dev/null || { echo "jvm-test: '$t' not found (need Go, a C compiler and a Java 17 JDK: apt-get install openjdk-17-jdk-headless gcc)" >&2; exit 1; }
done
JH=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
[ -f "$JH/include/jni.h" ] || { echo "jvm-test: no jni.h under JAVA_HOME=$JH (need a JDK, not a JRE)" >&2; exit 1; }
export GOFLAGS=-buildvcs=false
export GOWORK=off   # the SDK module alone (its generated build modules live under .cache/, inside the workspace's directory)
unset GOOS GOARCH
rm -rf "$W/gen" "$W/host" "$W/classes" "$W/lib"
mkdir -p "$W"

# 0. the pinned gobind (go.mod tool directive)
GOBIND=$("$ROOT/scripts/gobind-tool.sh" "$W/bin")

# 1. stubs for what the Android glue expects: <android/log.h>, liblog.a, android.content.Context
mkdir -p "$W/stub/include/android" "$W/stub/lib" "$W/stub/java/android/content"
cat > "$W/stub/include/android/log.h" <<'H'
#ifndef HOST_STUB_ANDROID_LOG_H
#define HOST_STUB_ANDROID_LOG_H
#include <stdarg.h>
typedef enum android_LogPriority { ANDROID_LOG_UNKNOWN = 0, ANDROID_LOG_DEFAULT, ANDROID_LOG_VERBOSE,
  ANDROID_LOG_DEBUG, ANDROID_LOG_INFO, ANDROID_LOG_WARN, ANDROID_LOG_ERROR, ANDROID_LOG_FATAL,
  ANDROID_LOG_SILENT } android_LogPriority;
int __android_log_print(int prio, const char *tag, const char *fmt, ...);
int __android_log_vprint(int prio, const char *tag, const char *fmt, va_list ap);
#endif
H
cat > "$W/stub/log.c" <<'C'
#include <stdio.h>
#include "android/log.h"
int __android_log_vprint(int p, const char *t, const char *f, va_list ap) {
  int n = fprintf(stderr, "[%d/%s] ", p, t); n += vfprintf(stderr, f, ap); fputc('\n', stderr); return n; }
int __android_log_print(int p, const char *t, const char *f, ...) {
  va_list ap; va_start(ap, f); int n = __android_log_vprint(p, t, f, ap); va_end(ap); return n; }
C
"$CC" -c -fPIC -I"$W/stub/include" "$W/stub/log.c" -o "$W/stub/log.o"
"$AR" rcs "$W/stub/lib/liblog.a" "$W/stub/log.o"
echo 'package android.content; public class Context {}' > "$W/stub/java/android/content/Context.java"

# 2. generate the Go + Java bindings as gomobile does (GOOS=android, inside the module)
(cd "$ROOT" && GOOS=android CGO_ENABLED=1 "$GOBIND" -lang=go,java ${JAVAPKG:+-javapkg=$JAVAPKG} -outdir="$W/gen" ./mobile)
if grep -rn '// skipped' "$W/gen/java" >&2; then
  echo "jvm-test: gobind skipped members of ./mobile (see above)" >&2; exit 1
fi

# 3. host build module: the generated main package, requiring the SDK module by
#    a replace; its requirements are copied from go.mod so go.sum covers them
#    (no `go mod tidy`, no network beyond what `go mod download` already did).
mkdir -p "$W/host" && cp -r "$W/gen/src/gobind" "$W/host/gobind"
for f in "$W"/host/gobind/*_android.go "$W"/host/gobind/*_android.c; do   # GOOS file-name filter
  mv "$f" "${f%_android.*}_hostjni.${f##*.}"; done
MODPATH=$(cd "$ROOT" && go list -m)
{ sed -e "s|^module .*|module hostjni|" -e '/^tool/,$d' "$ROOT/go.mod"
  printf '\nrequire %s v0.0.0\n\nreplace %s => %s\n' "$MODPATH" "$MODPATH" "$ROOT"; } > "$W/host/go.mod"
cp "$ROOT/go.sum" "$W/host/go.sum"
(cd "$W/host" &&
 CGO_ENABLED=1 CC="$CC" GOARCH="${JVM_GOARCH:-$(go env GOARCH)}" \
 CGO_CFLAGS="-O2 -D__GOBIND_ANDROID__ -Wno-incompatible-pointer-types -I$JH/include -I$JH/include/linux -I$W/stub/include" \
 CGO_LDFLAGS="-L$W/stub/lib" \
 go build -mod=mod -trimpath -buildmode=c-shared -o "$W/lib/libgojni.so" ./gobind)

# 4. javac (generated + stub + tests) and run; loadLibrary("gojni") needs java.library.path
mkdir -p "$W/classes"
javac -nowarn --release 8 -Xlint:-options -d "$W/classes" "$W/stub/java/android/content/Context.java" \
  $(find "$W/gen/java" "$TESTSRC" ${JVM_EXTRA_SRC:-} -name '*.java')
cd "$ROOT"
echo "jvm-test: libgojni.so $(stat -c %s "$W/lib/libgojni.so") bytes (GOARCH ${JVM_GOARCH:-$(go env GOARCH)}); running $MAIN"
exec timeout -k 10 "${JVM_TIMEOUT:-300}" "${JAVA_CMD[@]}" -Xss4m "${JAVA_OPTS[@]}" -Djava.library.path="$W/lib" -cp "$W/classes" "$MAIN" "$@"
