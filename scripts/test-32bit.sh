#!/usr/bin/env bash
# The SDK where int has 32 bits (gomobile's android/arm and android/386):
#   1. go vet for GOARCH=arm and GOARCH=386 (every package, tests included);
#   2. every package's test binary built for 386 and for arm (go test -exec true):
#      the tests compile with 32-bit int and uintptr, whether or not they run;
#   3. the short tests run as 386, natively or under qemu-i386, where this
#      machine can run a 386 binary (scripts/capability.sh has 386); where it
#      cannot (a kernel with 32-bit emulation disabled, qemu-i386 crashing on
#      Go's runtime), this says so plainly and records it for make test's
#      summary instead of failing on the machine.
# Env: WORDVEIL_NO_386=1 forces step 3 off (to exercise the fallback);
#      TIMEOUT, the go test -timeout of step 3 (default 20m).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
export PATH="$PATH:/usr/local/go/bin"
GO=${GO:-go}
CAP=$ROOT/scripts/capability.sh

for arch in arm 386; do
  echo "test-32bit: go vet, GOARCH=$arch"
  GOARCH=$arch $GO vet ./...
done
# Every package's test binary is built (and linked) for each arch without
# running it: -exec true stands in for the binary's run. (go test -c -o DIR
# ./... cannot be used: two packages share the name wordveil, the root
# package and the command, and their binaries would have the same name.)
pkgs=$($GO list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' ./... | grep -c .)
for arch in 386 arm; do
  GOARCH=$arch $GO test -count=1 -exec true ./... >/dev/null
  echo "test-32bit: built the test binaries of $pkgs packages for GOARCH=$arch"
done

if wrap=$("$CAP" exec 386); then
  echo "test-32bit: running the short tests as 386${wrap:+ under $wrap}"
  GOARCH=386 $GO test -short -count=1 -timeout "${TIMEOUT:-20m}" ${wrap:+-exec "$wrap"} ./...
else
  "$CAP" notrun test-32bit "the 386 short tests (vet and test builds for 386 and arm passed; see the reason above)"
fi
