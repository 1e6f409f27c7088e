#!/usr/bin/env bash
# API golden for the mobile bindings. Regenerates, with the gobind pinned in
# go.mod, the Objective-C header of ./mobile (what the XCFramework exposes to
# Swift/ObjC; the ObjC binding cannot be compiled on Linux, so its header is
# checked instead) and the Java binding (what the AAR exposes), and fails if
#   - the header differs from mobile/golden/Mobile.objc.h (an API change:
#     review it, then run `make golden` = scripts/check-golden.sh -update), or
#   - any generated Java or ObjC file has a "// skipped" comment (gobind silently leaves
#     out members whose types it cannot bind).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GOLDEN=$ROOT/mobile/golden
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
export GOFLAGS=-buildvcs=false
export GOWORK=off   # the SDK module alone (its generated build modules live under .cache/, inside the workspace's directory)
GOBIND=$("$ROOT/scripts/gobind-tool.sh")
cd "$ROOT"
GOOS=darwin CGO_ENABLED=1 "$GOBIND" -lang=objc -outdir="$W/objc" ./mobile
GOOS=android CGO_ENABLED=1 "$GOBIND" -lang=java -outdir="$W/java" ./mobile
status=0
if grep -rn '// skipped' "$W/objc" "$W/java" | sed "s|$W/||"; then
  echo "check-golden: gobind skipped the members above: use only string, []byte, bool, int64, float64, error and pointers to exported structs in ./mobile's API" >&2
  status=1
fi
hdr=$W/objc/src/gobind/Mobile.objc.h
if [ "${1:-}" = -update ]; then
  mkdir -p "$GOLDEN" && cp "$hdr" "$GOLDEN/Mobile.objc.h"
  echo "check-golden: updated mobile/golden/Mobile.objc.h"
elif ! diff -u "$GOLDEN/Mobile.objc.h" "$hdr"; then
  echo "check-golden: the Objective-C API of ./mobile changed (diff above). If intended, run 'make golden' and commit mobile/golden/." >&2
  status=1
else
  echo "check-golden: Objective-C header matches mobile/golden/Mobile.objc.h; no skipped members"
fi
exit $status
