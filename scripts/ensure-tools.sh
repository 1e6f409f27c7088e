#!/usr/bin/env bash
# Installs what `make test` needs beyond Go itself, on a fresh Debian machine
# of this project's kind: qemu-user, to run the arm64 kernels' tests. (The
# other installs and downloads of make test are done by the targets that
# need them: README.md, "What make test installs and downloads".)
# Idempotent; prints what it does.
set -euo pipefail

if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then
    echo "ensure-tools: add /usr/local/go/bin to PATH" >&2
  else
    echo "ensure-tools: Go 1.26 or newer is required (https://go.dev/dl/)" >&2
  fi
  exit 1
fi

# Missing tools the machine cannot install are not an error here: the
# targets that need them detect what runs (scripts/capability.sh), do what
# they can without it, and say what they could not run.
if ! command -v qemu-aarch64 >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && [ -z "${WORDVEIL_NO_APT:-}" ]; then
    echo "ensure-tools: installing qemu-user (arm64 kernel tests)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null
  else
    echo "ensure-tools: qemu-aarch64 not found and cannot install it (needs root and apt-get: sudo apt-get install qemu-user); the arm64 tests will be built but not run" >&2
  fi
fi
