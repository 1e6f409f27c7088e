#!/usr/bin/env bash
# Compiles every Kotlin source of android-sample/ for real, without the Android
# SDK: kotlinc 2.0.21 (npm package kotlin-compiler) against
#   - the gobind Java binding of ./mobile (gobind -lang=java, as gomobile puts it
#     into the AAR), compiled to classes: build the same classes.jar the AAR has;
#   - the Android framework's declarations: the Java sources of Debian's
#     android-platform-frameworks-base 10.0.0+r36 (API 29; core/java,
#     graphics/java, keystore/java), given to kotlinc as Java source roots,
#     which it reads for resolution only;
#   - R classes: the app's from aapt2 (Debian's aapt) linking res/ against
#     Debian's framework-res.apk (API 29), and android.R from that apk's PUBLIC
#     resources.
# Then a negative control: android-sample/check/WrongBindingUse.kt, which calls
# the binding wrongly, must fail to compile; the check fails if it compiles.
#
# All inputs are pinned in scripts/pins/mobile.lock (sha256-verified,
# scripts/fetch-pinned.sh) and unpacked under CACHE (default ~/.cache/wordveil).
#
# Usage: scripts/check-android-sample.sh
# Env:   WORDVEIL_CACHE   the cache directory
#        SAMPLE_EXTRA     more .kt files to compile with the sample (e.g. the
#                         negative control, to see the check fail)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${WORDVEIL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wordveil}
W=$ROOT/.cache/android-sample
SAMPLE=$ROOT/android-sample/app/src/main
NEGATIVE=$ROOT/android-sample/check/WrongBindingUse.kt
export GOFLAGS=-buildvcs=false
export GOWORK=off   # the SDK module alone (its generated build modules live under .cache/, inside the workspace's directory)
start=$(date +%s)
die() { echo "check-android-sample: $*" >&2; exit 1; }
for t in go javac jar java dpkg-deb tar; do
  command -v $t >/dev/null || die "'$t' not found (need Go, a Java 17 JDK and dpkg)"
done

# 1. pinned inputs
declare -A PIN
while IFS=$'\t' read -r name path; do PIN[$name]=$path; done < <("$ROOT/scripts/fetch-pinned.sh" android "$CACHE")

unpack() { # stamp-dir sha-source command...: run the command once per pinned file
  local dir=$1 src=$2; shift 2
  local stamp; stamp=$(basename "$src")
  if [ ! -f "$dir/.from" ] || [ "$(cat "$dir/.from")" != "$stamp" ]; then
    rm -rf "$dir"; mkdir -p "$dir"
    "$@"
    echo "$stamp" > "$dir/.from"
  fi
}
KDIR=$CACHE/kotlinc-2.0.21
unpack "$KDIR" "${PIN[kotlin-compiler]}" tar -xzf "${PIN[kotlin-compiler]}" -C "$KDIR"
KOTLINC=$KDIR/package/bin/kotlinc
FW=$CACHE/android-frameworks-base-api29
unpack "$FW" "${PIN[android-platform-frameworks-base]}" \
  tar -xJf "${PIN[android-platform-frameworks-base]}" -C "$FW" core/java graphics/java keystore/java
RES=$CACHE/android-framework-res-api29
unpack "$RES" "${PIN[android-framework-res]}" dpkg-deb -x "${PIN[android-framework-res]}" "$RES"
FRAMEWORK_RES=$RES/usr/share/android-framework-res/framework-res.apk

# aapt2 is a program with shared libraries: install the pinned package (apt
# resolves its libraries from the archive) unless that version is installed.
want=$(awk '$1=="android" && $3=="aapt" {print $4}' "$ROOT/scripts/pins/mobile.lock")
have=$(dpkg-query -W -f '${Version}' aapt 2>/dev/null || true)
if [ "$have" != "$want" ]; then
  [ "$(id -u)" = 0 ] || die "aapt $want is needed (have '${have:-none}'): sudo apt-get install ${PIN[aapt]}"
  echo "check-android-sample: installing aapt $want (apt-get install ${PIN[aapt]})"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${PIN[aapt]}" >/dev/null
fi

rm -rf "$W"; mkdir -p "$W"

# 2. the binding's classes, as in the AAR's classes.jar (android.content.Context
#    is only needed to compile go.Seq and is not kept: the framework provides it)
GOBIND=$("$ROOT/scripts/gobind-tool.sh" "$W/bin")
(cd "$ROOT" && GOOS=android CGO_ENABLED=1 "$GOBIND" -lang=java ${JAVAPKG:+-javapkg=$JAVAPKG} -outdir="$W/gen" ./mobile)
mkdir -p "$W/stub/android/content" "$W/binding"
echo 'package android.content; public class Context {}' > "$W/stub/android/content/Context.java"
javac -nowarn --release 8 -Xlint:-options -d "$W/binding" "$W/stub/android/content/Context.java" \
  $(find "$W/gen/java" -name '*.java')
rm -rf "$W/binding/android"
jar cf "$W/binding.jar" -C "$W/binding" .

# 3. R classes. The copy of the manifest gets the package attribute (Gradle
#    passes the namespace instead) and loses android:dataExtractionRules,
#    an API 31 attribute that API 29's framework-res does not define.
mkdir -p "$W/r/gen" "$W/r/android/android"
sed -e 's|<manifest xmlns:android="http://schemas.android.com/apk/res/android">|<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="io.github.wordveil.sample">|' \
    -e '/android:dataExtractionRules=/d' "$SAMPLE/AndroidManifest.xml" > "$W/r/AndroidManifest.xml"
grep -q 'package="io.github.wordveil.sample"' "$W/r/AndroidManifest.xml" || die "could not add the package to the manifest copy"
aapt2 compile --dir "$SAMPLE/res" -o "$W/r/res.zip"
aapt2 link -I "$FRAMEWORK_RES" --manifest "$W/r/AndroidManifest.xml" --min-sdk-version 23 --target-sdk-version 29 \
  --java "$W/r/gen" -o "$W/r/app.apk" "$W/r/res.zip"
aapt2 dump resources "$FRAMEWORK_RES" | awk '
  /^  type / { t = $2; next }
  /^    resource 0x/ && / PUBLIC/ && t !~ /^\^/ {
    split($3, a, "/"); n = a[2]; gsub(/[.:]/, "_", n)
    body[t] = body[t] sprintf("        public static final int %s = %s;\n", n, $2) }
  END { print "package android;\n\n/** The PUBLIC resources of framework-res.apk (API 29). */\npublic final class R {"
        for (k in body) printf "    public static final class %s {\n%s    }\n", k, body[k]
        print "}" }' > "$W/r/android/android/R.java"

# 4. compile. -language-version 1.9: the K2 (2.0) front end type-checks the
#    sample cleanly too, but its JVM back end then fails on annotations of the
#    framework's Java sources (constants it cannot evaluate from sources), so
#    K1 is used. -Xnullability-annotations=@android.annotation:warn: the SDK's
#    android.jar marks these as @RecentlyNullable/@RecentlyNonNull, which
#    Kotlin reports as warnings; the sources carry the plain annotations.
KFLAGS=(-language-version 1.9 -Xnullability-annotations=@android.annotation:warn -jvm-target 17 -cp "$W/binding.jar")
mapfile -t SOURCES < <(find "$SAMPLE/java" -name '*.kt' | sort)
[ "${#SOURCES[@]}" -gt 0 ] || die "no Kotlin sources under $SAMPLE/java"
read -r -a EXTRA <<< "${SAMPLE_EXTRA:-}"
echo "check-android-sample: kotlinc $("$KOTLINC" -version 2>&1 | sed -n 's/.*kotlinc-jvm \([^ ]*\).*/\1/p'): ${#SOURCES[@]} sources${EXTRA:+ + ${EXTRA[*]}} against the binding and API 29"
if ! "$KOTLINC" "${KFLAGS[@]}" -d "$W/classes" "${SOURCES[@]}" "${EXTRA[@]}" \
     "$W/r/gen" "$W/r/android" "$FW/core/java" "$FW/graphics/java" "$FW/keystore/java" > "$W/kotlinc.log" 2>&1; then
  grep -E 'error:' -A2 "$W/kotlinc.log" >&2 || cat "$W/kotlinc.log" >&2
  die "the sample does not compile (full log: $W/kotlinc.log)"
fi
for f in "${SOURCES[@]}"; do # every source produced its class: Name.kt -> Name.class (or NameKt.class)
  pkg=$(sed -n 's/^package \(.*\)/\1/p' "$f" | head -1)
  c=$W/classes/${pkg//.//}/$(basename "$f" .kt)
  [ -f "$c.class" ] || [ -f "${c}Kt.class" ] || die "no class for $f in $W/classes"
done
echo "check-android-sample: compiled $(find "$W/classes" -name '*.class' | wc -l) classes; $(grep -c 'warning:' "$W/kotlinc.log" || true) warnings (log: $W/kotlinc.log)"

# 5. negative control: must not compile, and for the reason it was written for
if "$KOTLINC" "${KFLAGS[@]}" -d "$W/negative" "$NEGATIVE" > "$W/negative.log" 2>&1; then
  die "negative control: ${NEGATIVE#$ROOT/} compiled, so this check would not catch a wrong call into the binding"
fi
grep -q 'WrongBindingUse.kt:.*error: type mismatch: inferred type is String but Double was expected' "$W/negative.log" ||
  { cat "$W/negative.log" >&2; die "negative control: it failed, but not with the expected type mismatch (log above)"; }
echo "check-android-sample: negative control rejected as expected: $(grep -m1 'error:' "$W/negative.log" | sed "s|$ROOT/||")"
echo "check-android-sample: passed in $(( $(date +%s) - start )) s"
