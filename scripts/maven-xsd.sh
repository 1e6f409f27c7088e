#!/usr/bin/env bash
# Prints the path of the Maven POM 4.0.0 XML schema (maven-4.0.0.xsd), made
# once into the cache the way Apache makes the published one: Modello's xsd
# generator run on maven-model/src/main/mdo/maven.mdo of Maven 3.8.7's source.
# Debian ships no maven-4.0.0.xsd, but it ships both of those; they are pinned
# in scripts/pins/mobile.lock (group pomxsd) and unpacked, not installed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WORDVEIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wordveil}
D=$CACHE/maven-xsd
XSD=$D/out/maven-4.0.0.xsd
mapfile -t FILES < <("$ROOT/scripts/fetch-pinned.sh" pomxsd "$CACHE" | cut -f2)
stamp=$(printf '%s\n' "${FILES[@]##*/}" | sha256sum | cut -c1-16)
if [ ! -f "$XSD" ] || [ "$(cat "$D/.from" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$D"; mkdir -p "$D/root"
  for f in "${FILES[@]}"; do
    case $f in
    *.deb) dpkg-deb -x "$f" "$D/root" ;;
    *.orig.tar.*) tar -xf "$f" -C "$D" --wildcards '*/maven-model/src/main/mdo/maven.mdo' ;;
    esac
  done
  J=$D/root/usr/share/java
  CP=$J/modello-core.jar:$J/modello-plugin-xsd.jar:$J/modello-plugin-xml.jar:$J/modello-plugin-java.jar
  CP=$CP:$J/plexus-container-default.jar:$J/plexus-classworlds.jar:$J/plexus-utils2.jar:$J/plexus-build-api.jar
  CP=$CP:$J/xbean-reflect.jar:$J/guava.jar
  MDO=$(ls "$D"/*/maven-model/src/main/mdo/maven.mdo)
  # ModelloCli arguments: model, generator, output dir, model version,
  # package-with-version, use Java 5, encoding.
  java -cp "$CP" org.codehaus.modello.ModelloCli "$MDO" xsd "$D/out" 4.0.0 false true UTF-8 >&2
  [ -s "$XSD" ] || { echo "maven-xsd: Modello wrote no $XSD" >&2; exit 1; }
  echo "$stamp" > "$D/.from"
fi
echo "$XSD"
