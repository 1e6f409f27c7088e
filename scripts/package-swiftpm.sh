#!/usr/bin/env bash
# Writes a Swift package that serves the zipped XCFramework as a binaryTarget:
#
#   OUT/Package.swift          binaryTarget(url: URL/WordVeil.xcframework.zip, checksum: sha256 of the zip)
#
# The checksum is what `swift package compute-checksum ZIP` prints: the
# SHA-256 of the zip file, in hex. The zip must hold WordVeil.xcframework at
# its top level (`make xcframework` writes build/WordVeil.xcframework.zip so).
#
# Usage: scripts/package-swiftpm.sh ZIP [OUT]     (OUT default: build/swiftpm)
# Env:   VERSION (default: scripts/mobile-version.sh),
#        RELEASE_URL (where the zip will be downloadable; default
#        https://github.com/wordveil/wordveil/releases/download/vVERSION)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ZIP=${1:?usage: scripts/package-swiftpm.sh ZIP [OUT]}
OUT=${2:-$ROOT/build/swiftpm}
die() { echo "package-swiftpm: $*" >&2; exit 1; }
[ -f "$ZIP" ] || die "no zip at $ZIP (make xcframework builds it)"
unzip -l "$ZIP" 'WordVeil.xcframework/Info.plist' >/dev/null 2>&1 ||
  die "$ZIP does not hold WordVeil.xcframework/Info.plist at its top level"
VER=$("$ROOT/scripts/mobile-version.sh")
URL=${RELEASE_URL:-https://github.com/wordveil/wordveil/releases/download/v$VER}
[[ $URL =~ ^https://[^[:space:]\"\\]+$ ]] || die "RELEASE_URL must be an https URL without quotes or spaces: '$URL'"
SUM=$(sha256sum < "$ZIP" | cut -d' ' -f1)
mkdir -p "$OUT"
cat > "$OUT/Package.swift" <<SWIFT
// swift-tools-version:5.3
// Written by scripts/package-swiftpm.sh for WordVeil $VER. The binary target is
// the gomobile XCFramework (module WordVeil: iOS 13+, iOS simulator, macOS 11+);
// the checksum is the SHA-256 of the zip (swift package compute-checksum).
import PackageDescription

let package = Package(
    name: "WordVeil",
    platforms: [.iOS(.v13), .macOS(.v11)],
    products: [
        .library(name: "WordVeil", targets: ["WordVeil"]),
    ],
    targets: [
        .binaryTarget(
            name: "WordVeil",
            url: "$URL/WordVeil.xcframework.zip",
            checksum: "$SUM"
        ),
    ]
)
SWIFT
echo "package-swiftpm: $OUT/Package.swift (WordVeil $VER, checksum $SUM)"
