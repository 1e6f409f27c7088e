#!/usr/bin/env bash
# Builds the mobile libraries with the gomobile/gobind pinned in go.mod:
#   scripts/mobile-bind.sh android   -> build/wordveil.aar, then build/maven/ (local Maven
#                                       repository: AAR, POM, sources jar; scripts/package-maven.sh)
#   scripts/mobile-bind.sh apple     -> build/WordVeil.xcframework, build/WordVeil.xcframework.zip,
#                                       build/swiftpm/Package.swift (scripts/package-swiftpm.sh)
# It first generates the bindings with gobind (runs anywhere; into the git-ignored
# .cache/gobind-java and
# .cache/gobind-objc), then checks for the toolchain `gomobile bind` needs
# (Android SDK + NDK, or Xcode) and stops with what to install if it is missing.
# Env: ANDROID_HOME / ANDROID_SDK_ROOT, ANDROID_NDK_HOME, ANDROID_API (default 21),
#      IOS_VERSION (default 13.0), MACOS_VERSION (default 11.0), JAVAPKG (Java package
#      prefix, default none: package "mobile"), VERSION (stamped into mobile.Version(), the
#      POM and Package.swift; default scripts/mobile-version.sh), RELEASE_URL (Package.swift).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TARGET=${1:?usage: scripts/mobile-bind.sh android|apple}
cd "$ROOT"
export GOFLAGS=-buildvcs=false
export GOWORK=off   # the SDK module alone (its generated build modules live under .cache/, inside the workspace's directory)
TOOLS=$ROOT/.cache/tools
GOBIND=$("$ROOT/scripts/gobind-tool.sh" "$TOOLS")
(env -u GOOS -u GOARCH CGO_ENABLED=0 go build -o "$TOOLS/gomobile" golang.org/x/mobile/cmd/gomobile)
export PATH="$TOOLS:$PATH"     # gomobile bind runs the gobind it finds on PATH
mkdir -p build
VERSION=$("$ROOT/scripts/mobile-version.sh"); export VERSION
LDFLAGS="-s -w -X github.com/wordveil/wordveil/mobile.version=$VERSION"

case $TARGET in
android)
  rm -rf .cache/gobind-java
  GOOS=android CGO_ENABLED=1 "$GOBIND" -lang=go,java ${JAVAPKG:+-javapkg=$JAVAPKG} -outdir=.cache/gobind-java ./mobile
  echo "mobile-bind: generated the Java binding in .cache/gobind-java"
  SDK=${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}
  NDK=${ANDROID_NDK_HOME:-}
  if [ -z "$NDK" ] && [ -n "$SDK" ]; then
    if [ -d "$SDK/ndk-bundle" ]; then NDK=$SDK/ndk-bundle
    else NDK=$(ls -d "$SDK"/ndk/*/ 2>/dev/null | sort -V | tail -1 || true); fi
  fi
  if [ -z "$SDK" ] || [ ! -d "$SDK/platforms" ] || [ -z "$NDK" ] || [ ! -d "$NDK/toolchains/llvm" ]; then
    cat >&2 <<MSG
mobile-bind: cannot build build/wordveil.aar on this machine: gomobile bind -target android
needs the Android SDK (platforms;android-NN) and the Android NDK (r27 or newer recommended).
  Found: ANDROID_HOME/ANDROID_SDK_ROOT='${SDK}'  NDK='${NDK}'
  Install: Android Studio's SDK Manager, or
    sdkmanager "platforms;android-35" "ndk;27.2.12479018"
    export ANDROID_HOME=\$HOME/Android/Sdk ANDROID_NDK_HOME=\$ANDROID_HOME/ndk/27.2.12479018
  then run 'make aar' again. (The gobind step above worked; 'make test-jvm' runs the
  same Java binding on the host JVM.)
MSG
    exit 2
  fi
  export ANDROID_HOME=$SDK ANDROID_NDK_HOME=${NDK%/}
  # 16 KB page alignment of libgojni.so for Android 15+ devices (also the default from NDK r28).
  export CGO_LDFLAGS="${CGO_LDFLAGS:-} -Wl,-z,max-page-size=16384 -Wl,-z,common-page-size=16384"
  go tool gomobile bind -target android -androidapi "${ANDROID_API:-21}" -trimpath \
    -ldflags "$LDFLAGS -extldflags=-Wl,-z,max-page-size=16384" ${JAVAPKG:+-javapkg=$JAVAPKG} \
    -o build/wordveil.aar ./mobile
  echo "mobile-bind: build/wordveil.aar ($(stat -c %s build/wordveil.aar) bytes)"
  if command -v unzip >/dev/null && command -v readelf >/dev/null; then
    d=$(mktemp -d); unzip -q -o build/wordveil.aar 'jni/*' -d "$d"
    for so in "$d"/jni/*/libgojni.so; do
      align=$(readelf -lW "$so" | awk '$1=="LOAD"{print $NF; exit}')
      echo "  ${so#$d/}: $(stat -c %s "$so") bytes, LOAD alignment $align"
      [ "$align" = 0x4000 ] || [ "$align" = 0x10000 ] || { echo "mobile-bind: $so is not 16 KB aligned" >&2; exit 1; }
    done
    rm -rf "$d"
  fi
  scripts/package-maven.sh build/wordveil.aar build/maven
  ;;
apple|ios|xcframework)
  rm -rf .cache/gobind-objc
  GOOS=darwin CGO_ENABLED=1 "$GOBIND" -lang=go,objc -outdir=.cache/gobind-objc ./mobile
  echo "mobile-bind: generated the Objective-C binding in .cache/gobind-objc"
  if [ "$(uname -s)" != Darwin ] || ! command -v xcrun >/dev/null || ! xcrun --sdk iphoneos --show-sdk-path >/dev/null 2>&1; then
    cat >&2 <<MSG
mobile-bind: cannot build build/WordVeil.xcframework on this machine: gomobile bind -target ios
needs macOS with Xcode (xcrun, the iPhoneOS/iPhoneSimulator/MacOSX SDKs) and its command-line tools.
  Found: $(uname -s), xcrun $(command -v xcrun || echo 'not found')
  Install: Xcode from the App Store, then 'sudo xcode-select -s /Applications/Xcode.app' and
  'xcodebuild -runFirstLaunch'; run 'make xcframework' again. The public header is checked
  here by 'make check-golden' (mobile/golden/Mobile.objc.h).
MSG
    exit 2
  fi
  go tool gomobile bind -target ios,iossimulator,macos -iosversion "${IOS_VERSION:-13.0}" \
    -macosversion "${MACOS_VERSION:-11.0}" -trimpath \
    -ldflags "$LDFLAGS" -o build/WordVeil.xcframework ./mobile
  echo "mobile-bind: build/WordVeil.xcframework ($(du -sh build/WordVeil.xcframework | cut -f1))"
  # ditto keeps the framework's symlinks and file modes, as SwiftPM expects.
  rm -f build/WordVeil.xcframework.zip
  (cd build && ditto -c -k --sequesterRsrc --keepParent WordVeil.xcframework WordVeil.xcframework.zip)
  scripts/package-swiftpm.sh build/WordVeil.xcframework.zip build/swiftpm
  ;;
*) echo "usage: scripts/mobile-bind.sh android|apple" >&2; exit 2 ;;
esac
