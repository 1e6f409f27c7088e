#!/usr/bin/env bash
# Reproduces the figures of docs/MOBILE.md:
#   1. JVM side (mobile/jvmtest Measure.java through the host libgojni.so):
#      Go-side RSS after loading the default asset, ns per binding call
#   2. Go side: the same call in `go test ./mobile -bench Privatize`
#   3. sizes: host libgojni.so (as built, and stripped), and a
#      GOOS=android GOARCH=arm64 CGO_ENABLED=0 build of a program that uses
#      the whole facade (proxy for the AAR's arm64 libgojni.so)
#   4. keyboard cold start per on-device mechanism (scripts/measure/KeyboardColdStart.java):
#      a fresh JVM per run; load + Go runtime start, openPrivatizer, first privatize;
#      VmRSS before/after and VmHWM; median of RUNS (default 5) runs per mechanism
#   5. writes every figure into docs/MOBILE.md and the README's mobile row, between
#      their <!-- measured:NAME --> markers (scripts/measure/mobiledoc), from the
#      output of 1-4 collected in $WORK/figures.txt: no figure is copied by hand.
#      It writes nothing if any figure is missing.
# Usage: scripts/measure-mobile.sh [coldstart]    (coldstart: only part 4, printed, not written)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
W=${WORK:-$ROOT/.cache/jvm}
export JVM_EXTRA_SRC=$ROOT/scripts/measure
FIG=$W/figures.txt

coldstart() {
  echo "== 4. keyboard cold start (fresh JVM per run, median of ${RUNS:-5}; 20-word first call, preset balanced)"
  mkdir -p "$W"
  # builds libgojni.so and the classes once, and is the first brr run
  WORK=$W scripts/jvm-test.sh wordveil.measure.KeyboardColdStart brr > "$W/coldstart.txt"
  for mech in brr tem-hamming 1dg 1dt; do
    for i in $(seq 1 "${RUNS:-5}"); do
      [ "$mech" = brr ] && [ "$i" = 1 ] && continue
      java -Xss4m -Djava.library.path="$W/lib" -cp "$W/classes" wordveil.measure.KeyboardColdStart "$mech" >> "$W/coldstart.txt"
    done
  done
  printf "%-16s %9s %9s %13s %9s %13s %10s %9s\n" mechanism "load ms" "open ms" "1st call ms" "cold ms" "Go-side MB" "RSS MB" "peak MB"
  grep '^mech=' "$W/coldstart.txt" | awk '
    { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[$1, kv[1], ++n[$1, kv[1]]] = kv[2] } m[$1] = 1 }
    function med(key, f,   k, a, c, i, j, t) { c = n[key, f]; for (i = 1; i <= c; i++) a[i] = v[key, f, i] + 0
      for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return a[int((c + 1) / 2)] }
    END { for (k in m) printf "%-16s %9.1f %9.1f %13.2f %9.1f %13.1f %10.1f %9.1f\n", substr(k, 6), med(k, "load_ms"), med(k, "open_ms"),
        med(k, "first_call_ms"), med(k, "cold_ms"), med(k, "go_side_mb"), med(k, "rss_after_mb"), med(k, "peak_mb") }' | sort
}
if [ "${1:-}" = coldstart ]; then coldstart; exit 0; fi

mkdir -p "$W"
: > "$FIG"
# how busy the machine was when the run began: timings scale with it
echo "figure machine.load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo unknown)" >> "$FIG"
echo "== 1. JVM side"
WORK=$W scripts/jvm-test.sh wordveil.jvmtest.Measure | tee -a "$FIG"
echo "== 2. Go side"
go test ./mobile -run '^$' -bench 'Privatize' -benchmem -count 5 | tee -a "$FIG"
echo "== 3. sizes"
so=$W/lib/libgojni.so
strip --strip-unneeded -o "$W/lib/libgojni.stripped.so" "$so"
echo "host libgojni.so (linux/amd64, -trimpath): $(stat -c %s "$so") bytes; stripped: $(stat -c %s "$W/lib/libgojni.stripped.so") bytes"
{ echo "figure size.host_so=$(stat -c %s "$so")"
  echo "figure size.host_so_stripped=$(stat -c %s "$W/lib/libgojni.stripped.so")"; } >> "$FIG"
P=$W/android-proxy; rm -rf "$P"; mkdir -p "$P"
MODPATH=$(GOWORK=off go list -m)   # the SDK module alone, not the workspace's modules
{ sed -e "s|^module .*|module androidproxy|" -e '/^tool/,$d' go.mod
  printf '\nrequire %s v0.0.0\n\nreplace %s => %s\n' "$MODPATH" "$MODPATH" "$ROOT"; } > "$P/go.mod"
cp go.sum "$P/go.sum"
cat > "$P/main.go" <<'GO'
// Uses every entry point of package mobile, so the linker keeps what the AAR keeps.
package main

import (
	"fmt"
	"os"

	"github.com/wordveil/wordveil/mobile"
)

func main() {
	cfg := mobile.NewConfig()
	cfg.Mechanism = os.Args[1]
	p, err := mobile.OpenPrivatizer(cfg)
	if err != nil {
		fmt.Println(mobile.ErrCode(err.Error()))
	}
	q, _ := mobile.OpenPrivatizerFromAsset([]byte(os.Args[2]), cfg)
	r, _ := mobile.OpenPrivatizerFromFile(os.Args[3], cfg)
	res, _ := p.Privatize(os.Args[4])
	d, _ := q.Deniability(1, 1)
	fmt.Println(res, d, r.Epsilon(), r.Metric(), r.VocabularySize(), mobile.SetMemoryLimit(-1), mobile.Version())
	mobile.FreeOSMemory()
}
GO
(cd "$P" && GOWORK=off GOFLAGS=-buildvcs=false GOOS=android GOARCH=arm64 CGO_ENABLED=0 go build -mod=mod -trimpath -ldflags "-s -w" -o facade-android-arm64 .)
echo "android/arm64 facade binary (CGO_ENABLED=0, -trimpath -s -w): $(stat -c %s "$P/facade-android-arm64") bytes"
echo "embedded asset: $(stat -c %s assets/en-glove100-50k.wva) bytes"
{ echo "figure size.android_proxy=$(stat -c %s "$P/facade-android-arm64")"
  echo "figure size.asset=$(stat -c %s assets/en-glove100-50k.wva)"; } >> "$FIG"
coldstart
cat "$W/coldstart.txt" >> "$FIG"
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
{ echo "figure machine.cpu=${cpu:-$(uname -m)}"
  echo "figure machine.cores=$(nproc)"
  echo "figure machine.os=$(uname -s)/$(go env GOARCH)"
  echo "figure machine.go=$(go env GOVERSION)"
  echo "figure machine.mobile=$(go list -m -f '{{.Version}}' golang.org/x/mobile)"; } >> "$FIG"
echo "== 5. writing the figures into docs/MOBILE.md and README.md"
go run ./scripts/measure/mobiledoc -figures "$FIG" -mobile docs/MOBILE.md -readme README.md
git diff --stat -- docs/MOBILE.md README.md 2>/dev/null || true
