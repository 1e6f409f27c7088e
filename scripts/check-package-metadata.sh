#!/usr/bin/env bash
# Checks the packaging steps of `make aar` / `make xcframework` on a machine
# without the NDK or Xcode, by running them on PLACEHOLDER artefacts:
#   build/package-metadata/PLACEHOLDER-wordveil.aar        a real AAR file (manifest,
#       classes.jar compiled from the gobind Java of ./mobile, R.txt) WITHOUT jni/
#       libraries: labelled PLACEHOLDER inside (PLACEHOLDER.txt) and in its name;
#   build/package-metadata/PLACEHOLDER-WordVeil.xcframework.zip   a zip holding
#       WordVeil.xcframework/Info.plist and PLACEHOLDER.txt, no binaries.
# On them it runs scripts/package-maven.sh (-> build/package-metadata/maven/) and
# scripts/package-swiftpm.sh (-> build/package-metadata/swiftpm/Package.swift),
# then checks:
#   - the POM validates against the Maven 4.0.0 XSD (xmllint; the XSD made by
#     scripts/maven-xsd.sh), and a copy with a misspelt element does NOT
#     (negative control: the validation can fail);
#   - the repository has the AAR byte for byte, a sources jar with the binding's
#     Java sources, and .sha1/.sha256/.md5 files that match;
#   - Package.swift equals scripts/pins/Package.swift.golden with the version,
#     URL and checksum filled in, and its checksum is the zip's SHA-256.
# Usage: scripts/check-package-metadata.sh        Env: VERSION, RELEASE_URL, WORDVEIL_CACHE
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
P=$ROOT/build/package-metadata
die() { echo "check-package-metadata: $*" >&2; exit 1; }
for t in xmllint python3 javac jar unzip; do
  command -v $t >/dev/null && continue
  [ $t = xmllint ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || die "'$t' not found (xmllint: apt-get install libxml2-utils)"
  echo "check-package-metadata: installing libxml2-utils (xmllint)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libxml2-utils >/dev/null
done
rm -rf "$P"; mkdir -p "$P/aar"
VER=$(scripts/mobile-version.sh); export VERSION=$VER

# 1. the placeholder AAR
export GOFLAGS=-buildvcs=false
export GOWORK=off   # the SDK module alone (its generated build modules live under .cache/, inside the workspace's directory)
GOBIND=$(scripts/gobind-tool.sh "$P/bin")
GOOS=android CGO_ENABLED=1 "$GOBIND" -lang=java -outdir="$P/gen" ./mobile
mkdir -p "$P/stub/android/content" "$P/classes"
echo 'package android.content; public class Context {}' > "$P/stub/android/content/Context.java"
javac -nowarn --release 8 -Xlint:-options -d "$P/classes" "$P/stub/android/content/Context.java" $(find "$P/gen/java" -name '*.java')
rm -rf "$P/classes/android"
jar --create --file "$P/aar/classes.jar" -C "$P/classes" .
cat > "$P/aar/AndroidManifest.xml" <<'XML'
<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="go">
    <uses-sdk android:minSdkVersion="21" />
</manifest>
XML
: > "$P/aar/R.txt"
echo "PLACEHOLDER made by scripts/check-package-metadata.sh: no jni/*/libgojni.so; not a usable library." > "$P/aar/PLACEHOLDER.txt"
mkdir -p "$P/xcf/WordVeil.xcframework"
cat > "$P/xcf/WordVeil.xcframework/Info.plist" <<'PLIST'
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>AvailableLibraries</key>
	<array/>
	<key>CFBundlePackageType</key>
	<string>XFWK</string>
	<key>XCFrameworkFormatVersion</key>
	<string>1.0</string>
</dict>
</plist>
PLIST
echo "PLACEHOLDER made by scripts/check-package-metadata.sh: no frameworks inside." > "$P/xcf/PLACEHOLDER.txt"
# Fixed file times, so the zips (and the checksum in Package.swift) are reproducible.
python3 - "$P" <<'PY'
import os, sys, zipfile
p = sys.argv[1]
def pack(src, out):
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for d, _, fs in sorted(os.walk(src)):
            for f in sorted(fs):
                full = os.path.join(d, f)
                info = zipfile.ZipInfo(os.path.relpath(full, src), (2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(full, "rb") as fh:
                    z.writestr(info, fh.read())
pack(os.path.join(p, "aar"), os.path.join(p, "PLACEHOLDER-wordveil.aar"))
pack(os.path.join(p, "xcf"), os.path.join(p, "PLACEHOLDER-WordVeil.xcframework.zip"))
PY

# 2. the packaging steps, as make aar / make xcframework run them
scripts/package-maven.sh "$P/PLACEHOLDER-wordveil.aar" "$P/maven"
scripts/package-swiftpm.sh "$P/PLACEHOLDER-WordVeil.xcframework.zip" "$P/swiftpm"

# 3. the Maven repository
D=$P/maven/io/github/wordveil/wordveil/$VER
POM=$D/wordveil-$VER.pom
XSD=$(scripts/maven-xsd.sh)
xmllint --noout --schema "$XSD" "$POM" || die "the POM does not validate against the Maven 4.0.0 XSD"
sed 's|<packaging>|<packageing>|; s|</packaging>|</packageing>|' "$POM" > "$P/negative.pom"
if xmllint --noout --schema "$XSD" "$P/negative.pom" 2>"$P/negative.log"; then
  die "negative control: a POM with <packageing> validated, so the XSD check checks nothing"
fi
echo "check-package-metadata: negative control rejected: $(grep -m1 -o "Element.*packageing.*not expected" "$P/negative.log" || head -1 "$P/negative.log")"
cmp -s "$P/PLACEHOLDER-wordveil.aar" "$D/wordveil-$VER.aar" || die "the repository's AAR differs from the input"
for c in mobile/Config.java mobile/Mobile.java mobile/Privatizer.java go/Seq.java; do
  unzip -l "$D/wordveil-$VER-sources.jar" "$c" >/dev/null || die "sources jar lacks $c"
done
for f in "$D"/*.aar "$D"/*.pom "$D"/*.jar "$P"/maven/io/github/wordveil/wordveil/maven-metadata.xml; do
  [ "$(sha1sum < "$f" | cut -d' ' -f1)" = "$(cat "$f.sha1")" ] &&
  [ "$(sha256sum < "$f" | cut -d' ' -f1)" = "$(cat "$f.sha256")" ] &&
  [ "$(md5sum < "$f" | cut -d' ' -f1)" = "$(cat "$f.md5")" ] || die "checksum files of $f do not match"
done
xmllint --noout "$P"/maven/io/github/wordveil/wordveil/maven-metadata.xml

# 4. Package.swift
SUM=$(sha256sum < "$P/PLACEHOLDER-WordVeil.xcframework.zip" | cut -d' ' -f1)
URL=${RELEASE_URL:-https://github.com/wordveil/wordveil/releases/download/v$VER}
sed -e "s|@VERSION@|$VER|g" -e "s|@URL@|$URL|g" -e "s|@CHECKSUM@|$SUM|g" scripts/pins/Package.swift.golden > "$P/Package.swift.expected"
diff -u "$P/Package.swift.expected" "$P/swiftpm/Package.swift" ||
  die "Package.swift differs from scripts/pins/Package.swift.golden (diff above)"
grep -q "checksum: \"$SUM\"" "$P/swiftpm/Package.swift" || die "Package.swift's checksum is not the zip's SHA-256"
echo "check-package-metadata: POM valid (Maven 4.0.0 XSD), repository complete, Package.swift matches its golden (checksum $SUM)"
echo "check-package-metadata: outputs in ${P#$ROOT/}/ (PLACEHOLDER artefacts: not for release)"
