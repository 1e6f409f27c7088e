#!/usr/bin/env bash
# Puts an AAR into a local Maven repository layout, with its POM and a
# sources jar, so that apps can depend on io.github.wordveil:wordveil:VERSION:
#
#   OUT/io/github/wordveil/wordveil/VERSION/wordveil-VERSION.aar
#                                          /wordveil-VERSION.pom
#                                          /wordveil-VERSION-sources.jar
#                                          (+ .sha1 .sha256 .md5 of each)
#   OUT/io/github/wordveil/wordveil/maven-metadata.xml
#
# Usage: scripts/package-maven.sh AAR [OUT]      (OUT default: build/maven)
# Env:   VERSION (default: scripts/mobile-version.sh), JAVAPKG (as for make aar)
# The sources jar holds the Java sources of the binding (gobind -lang=java of
# ./mobile, the classes the AAR's classes.jar is compiled from), regenerated
# here from the same tree. It is `make aar`'s last step; `make package-metadata`
# runs it on a placeholder AAR to check the POM on machines without the NDK.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
AAR=${1:?usage: scripts/package-maven.sh AAR [OUT]}
OUT=${2:-$ROOT/build/maven}
GROUP=io.github.wordveil ARTIFACT=wordveil
die() { echo "package-maven: $*" >&2; exit 1; }
[ -f "$AAR" ] || die "no AAR at $AAR (make aar builds it)"
unzip -l "$AAR" classes.jar >/dev/null 2>&1 || die "$AAR is not an AAR (no classes.jar in it)"
VER=$("$ROOT/scripts/mobile-version.sh")
REV=$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)
DIR=$OUT/${GROUP//.//}/$ARTIFACT/$VER
BASE=$DIR/$ARTIFACT-$VER
mkdir -p "$DIR"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

cp "$AAR" "$BASE.aar"

# The sources jar. File times are set to the commit's (reproducible jars).
export GOFLAGS=-buildvcs=false
export GOWORK=off   # the SDK module alone (its generated build modules live under .cache/, inside the workspace's directory)
GOBIND=$("$ROOT/scripts/gobind-tool.sh" "$T/bin")
(cd "$ROOT" && GOOS=android CGO_ENABLED=1 "$GOBIND" -lang=java ${JAVAPKG:+-javapkg=$JAVAPKG} -outdir="$T/gen" ./mobile)
when=$(git -C "$ROOT" log -1 --format=%cI 2>/dev/null || echo 2020-01-01T00:00:00Z)
rm -f "$BASE-sources.jar"
jar --create --file "$BASE-sources.jar" --date="$(date -u -d "$when" +%Y-%m-%dT%H:%M:%SZ)" -C "$T/gen/java" .

# The POM: no dependencies (the AAR carries the Go runtime and the asset).
cat > "$BASE.pom" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by scripts/package-maven.sh for $(basename "$AAR") (source revision $REV). -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>$GROUP</groupId>
  <artifactId>$ARTIFACT</artifactId>
  <version>$VER</version>
  <packaging>aar</packaging>
  <name>WordVeil</name>
  <description>On-device text privatization with metric differential privacy: the gomobile binding of WordVeil's mobile package (Java package ${JAVAPKG:+$JAVAPKG.}mobile; libgojni.so per Android ABI).</description>
  <url>https://github.com/wordveil/wordveil</url>
  <licenses>
    <license>
      <name>Apache-2.0</name>
      <url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>
      <distribution>repo</distribution>
      <comments>The bundled English asset is derived from GloVe (PDDL 1.0); see NOTICE.</comments>
    </license>
  </licenses>
  <scm>
    <url>https://github.com/wordveil/wordveil</url>
    <connection>scm:git:https://github.com/wordveil/wordveil.git</connection>
    <tag>$REV</tag>
  </scm>
</project>
POM

# maven-metadata.xml: every version present in OUT; latest/release: the one just written.
META=$OUT/${GROUP//.//}/$ARTIFACT/maven-metadata.xml
{
  echo '<?xml version="1.0" encoding="UTF-8"?>'
  echo "<metadata><groupId>$GROUP</groupId><artifactId>$ARTIFACT</artifactId><versioning>"
  echo "  <latest>$VER</latest><release>$VER</release><versions>"
  for d in "$OUT/${GROUP//.//}/$ARTIFACT"/*/; do echo "    <version>$(basename "$d")</version>"; done
  echo "  </versions><lastUpdated>$(date -u +%Y%m%d%H%M%S)</lastUpdated></versioning></metadata>"
} > "$META"

for f in "$BASE.aar" "$BASE.pom" "$BASE-sources.jar" "$META"; do
  sha1sum < "$f" | cut -d' ' -f1 > "$f.sha1"
  sha256sum < "$f" | cut -d' ' -f1 > "$f.sha256"
  md5sum < "$f" | cut -d' ' -f1 > "$f.md5"
done
echo "package-maven: $GROUP:$ARTIFACT:$VER in $OUT (${BASE#$OUT/}.{aar,pom}, -sources.jar)"
