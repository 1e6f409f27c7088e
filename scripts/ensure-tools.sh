#!/usr/bin/env bash
# Installs what `make test` needs beyond Go itself, on a fresh Debian machine
# of this project's kind: qemu-user, to run the arm64 kernels' tests.
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

if ! command -v qemu-aarch64 >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-tools: installing qemu-user (arm64 kernel tests)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null
  else
    echo "ensure-tools: qemu-aarch64 not found; install qemu-user (Debian/Ubuntu: sudo apt-get install qemu-user)" >&2
    exit 1
  fi
fi
