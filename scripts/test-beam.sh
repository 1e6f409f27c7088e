#!/usr/bin/env bash
# The Beam pipeline module (beam/, its own go.mod, outside go.work): go vet,
# staticcheck,
# its tests on Prism at full size (a 1,000,000-word corpus among them), the
# pipeline package's short tests under the race detector, the portable-runner
# test (the command submitted to Prism's job server in a process of its own,
# its workers in processes of their own; docs/BEAM.md), and the README's
# command. Apache Beam's Go SDK and what its worker harness imports (about
# 870 MB of module cache, pinned by beam/go.sum) come from the Go module
# proxy: where they cannot be downloaded, this says so plainly and records
# it for make test's summary instead of failing on the machine.
# A checksum that does not match beam/go.sum is a failure, never a skip.
# Env: GO (default go), TIMEOUT (default 30m).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$PATH:/usr/local/go/bin" GOWORK=off
GO=${GO:-go}
CAP=$ROOT/scripts/capability.sh
cd "$ROOT/beam"

log=$(mktemp); trap 'rm -f "$log"' EXIT
# "tool": Prism's job server and Beam's container boot program, which the
# portable-runner test builds (beam/go.mod's tool block pins them).
if ! $GO list -deps -test ./... tool >/dev/null 2>"$log"; then
  if grep -qiE 'checksum mismatch|SECURITY ERROR' "$log"; then
    cat "$log" >&2
    exit 1
  fi
  if grep -qiE 'dial tcp|no such host|connection refused|i/o timeout|proxy|TLS handshake|403 Forbidden|404 Not Found' "$log"; then
    cat "$log" >&2
    "$CAP" notrun test-beam "the Beam pipeline's vet and tests: Apache Beam's Go modules could not be downloaded (see the reason above)"
    exit 0
  fi
  cat "$log" >&2
  exit 1
fi
$GO vet ./...
STATICCHECK_DIR=$ROOT/beam "$ROOT/scripts/staticcheck.sh" ./...
$GO test -count=1 -timeout "${TIMEOUT:-30m}" -skip '^TestPortableRunner$' ./...
# The portable-runner test, on its own so that its skip (only where Prism's job
# server cannot be built or started) is printed and recorded, not lost in -v-less
# output.
start=$SECONDS
$GO test -count=1 -timeout "${TIMEOUT:-30m}" -run '^TestPortableRunner$' -v ./cmd/wordveil-beam | tee "$log"
echo "test-beam: the portable-runner test took $((SECONDS - start)) s (building Prism, boot and the command included)"
if grep -q -- '--- SKIP: TestPortableRunner' "$log"; then
  "$CAP" notrun test-beam "the portable-runner test (Prism's job server in its own process, PROCESS workers): $(grep -m1 -o 'NOT RUN: .*' "$log" | cut -c10-200)"
fi
$GO test -race -short -count=1 -timeout "${TIMEOUT:-30m}" ./pipeline
# The README's command, as written there (from the repository's root).
cd "$ROOT"
out=$(cd beam && s=$(mktemp -d) && GOWORK=off $GO run ./cmd/wordveil-beam -input 'testdata/chats/*.jsonl' -output "$s/run-1" -state "$s/state" -state-key "$s/state.key" -cap-words 60 2>&1 &&
  GOWORK=off $GO run ./cmd/wordveil-beam -input 'testdata/chats/*.jsonl' -output "$s/run-2" -state "$s/state" -state-key "$s/state.key" -cap-words 60 2>&1)
echo "$out"
echo "$out" | grep -q '30 records read (0 malformed lines skipped), 26 released, 4 withheld' ||
  { echo "test-beam: the README's command did not print what docs/BEAM.md says" >&2; exit 1; }
# The second run, sharing the state, releases only what is left of each user's cap.
echo "$out" | grep -q '30 records read (0 malformed lines skipped), 14 released, 16 withheld' ||
  { echo "test-beam: the README's second run (the same -state) did not print what README.md says" >&2; exit 1; }
echo "$out" | grep -q 'committed .*/run-2/MANIFEST.json' ||
  { echo "test-beam: the README's command did not commit its run" >&2; exit 1; }
echo "test-beam: vet, tests on Prism (race included), the portable-runner test and the README's command passed"
