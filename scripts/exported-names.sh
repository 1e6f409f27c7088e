#!/usr/bin/env bash
# Counts the module's exported API, per package (go list ./...), from the
# non-test Go files of the current GOOS/GOARCH (internal/tools/apireport).
#   scripts/exported-names.sh                 the table
#   scripts/exported-names.sh -undocumented   exported identifiers without a doc comment
# Extra arguments go to apireport: package patterns (default ./...).
#
# Table columns: types, funcs (package-level), methods (exported methods of
# exported types, and of exported interfaces), vars, consts; names is their
# sum. fields (exported fields of exported struct types, embedded ones
# included) are counted separately and NOT included in names. undocumented
# counts, from both, the identifiers without a doc comment (a comment above
# the declaration, at the end of its line, or above its const/var/type
# group), plus the package itself when no file has a package comment. kind is
# public, internal (importable only inside the module) or main.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
exec go run ./internal/tools/apireport "$@"
