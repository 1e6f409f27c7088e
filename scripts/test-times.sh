#!/usr/bin/env bash
# The slowest tests under -race -short, both modules (make test-times).
# Runs the same tests as `make test-race`, with -json, and prints the ten
# slowest top-level tests; exits non-zero if a test failed or took more than
# the 60 s budget the Makefile states. Meant for an idle machine: on a busy
# one the times are the machine's, not the tests'.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
TIMEOUT=${TIMEOUT:-25m}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
"$GO" test -race -short -count=1 -timeout "$TIMEOUT" -json ./... >"$out" || rc=1
(cd research && "$GO" test -race -short -count=1 -timeout "$TIMEOUT" -json ./...) >>"$out" || rc=1
"$GO" run ./internal/tools/testtimes -n "${N:-10}" -max 60s <"$out" || rc=1
if [ "$rc" -ne 0 ]; then
  grep -E '"Action":"fail"' "$out" | head -20 >&2 || true
fi
exit "$rc"
