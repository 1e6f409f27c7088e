#!/usr/bin/env bash
# Reproduces the figures of docs/MOBILE.md:
#   1. JVM side (mobile/jvmtest Measure.java through the host libgojni.so):
#      Go-side RSS after loading the default asset, ns per binding call
#   2. Go side: the same call in `go test ./mobile -bench Privatize`
#   3. sizes: host libgojni.so (as built, and stripped), and a
#      GOOS=android GOARCH=arm64 CGO_ENABLED=0 build of a program that uses
#      the whole facade (proxy for the AAR's arm64 libgojni.so)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
W=${WORK:-$ROOT/.cache/jvm}
echo "== 1. JVM side"
WORK=$W scripts/jvm-test.sh wordveil.jvmtest.Measure
echo "== 2. Go side"
go test ./mobile -run '^$' -bench 'Privatize' -benchmem -count 5
echo "== 3. sizes"
so=$W/lib/libgojni.so
strip --strip-unneeded -o "$W/lib/libgojni.stripped.so" "$so"
echo "host libgojni.so (linux/amd64, -trimpath): $(stat -c %s "$so") bytes; stripped: $(stat -c %s "$W/lib/libgojni.stripped.so") bytes"
P=$W/android-proxy; rm -rf "$P"; mkdir -p "$P"
MODPATH=$(go list -m)
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
(cd "$P" && GOFLAGS=-buildvcs=false GOOS=android GOARCH=arm64 CGO_ENABLED=0 go build -mod=mod -trimpath -ldflags "-s -w" -o facade-android-arm64 .)
echo "android/arm64 facade binary (CGO_ENABLED=0, -trimpath -s -w): $(stat -c %s "$P/facade-android-arm64") bytes"
echo "embedded asset: $(stat -c %s assets/en-glove100-50k.wva) bytes"
