#!/usr/bin/env bash
# Keyboard cold start before and after, in one run (docs/MOBILE.md,
# "Cold start before and after"): builds the host libgojni.so of two
# commits (scripts/jvm-test.sh in a worktree of each), then runs
# scripts/measure/KeyboardColdStart.java in a fresh JVM per run, RUNS times
# per mechanism, alternating the two libraries so that both see the same
# machine; prints the medians and, with -w, writes the table into
# docs/MOBILE.md between its <!-- measured:coldstart-compare --> markers.
#   scripts/coldstart-compare.sh [-w] OLD_COMMIT [NEW_COMMIT, default HEAD]    (env RUNS, default 7)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
write=0
if [ "${1:-}" = -w ]; then write=1; shift; fi
old=$1 new=${2:-HEAD} runs=${RUNS:-7}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; git worktree remove --force "$work/new" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
mechs="brr tem-hamming 1dg 1dt"
for side in old new; do
  rev=${!side}
  git worktree add -q --detach "$work/$side" "$rev"
  # builds the library and the classes, and is a first brr run (kept)
  WORK=$work/$side-jvm JVM_EXTRA_SRC=$work/$side/scripts/measure \
    "$work/$side/scripts/jvm-test.sh" wordveil.measure.KeyboardColdStart brr > "$work/$side.txt"
done
for i in $(seq 1 "$runs"); do
  for mech in $mechs; do
    for side in old new; do
      [ "$mech" = brr ] && [ "$i" = 1 ] && continue
      java -Xss4m -Djava.library.path="$work/$side-jvm/lib" -cp "$work/$side-jvm/classes" \
        wordveil.measure.KeyboardColdStart "$mech" >> "$work/$side.txt"
    done
  done
done
table() {
  echo "| commit | mechanism | runs | load + Go runtime | \`openPrivatizer\` | first call | **cold start** | Go side (VmRSS growth) |"
  echo "|---|---|---|---|---|---|---|---|"
  for side in old new; do
    rev=$(git rev-parse --short "${!side}")
    grep '^mech=' "$work/$side.txt" | awk -v rev="$rev" -v order="$mechs" '
      { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[$1, kv[1], ++n[$1, kv[1]]] = kv[2] } }
      function med(key, f,   a, c, i, j, t) { c = n[key, f]; for (i = 1; i <= c; i++) a[i] = v[key, f, i] + 0
        for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return a[int((c + 1) / 2)] }
      END { k = split(order, ms, " "); for (i = 1; i <= k; i++) { key = "mech=" ms[i]
        printf "| %s | `%s` | %d | %.1f ms | %.1f ms | %.2f ms | **%.1f ms** | %.1f MB |\n", rev, ms[i], n[key, "load_ms"],
          med(key, "load_ms"), med(key, "open_ms"), med(key, "first_call_ms"), med(key, "cold_ms"), med(key, "go_side_mb") } }'
  done
  echo
  echo "Measured $(date -u +%Y-%m-%d) by \`RUNS=$runs scripts/coldstart-compare.sh -w $(git rev-parse --short "$old") $(git rev-parse --short "$new")\`, the two libraries alternating run by run (load average $(cut -d' ' -f1 /proc/loadavg) at the end)."
}
table | tee "$work/table.md"
if [ "$write" = 1 ]; then
  doc=docs/MOBILE.md
  grep -q '<!-- measured:coldstart-compare -->' "$doc" || { echo "coldstart-compare: no <!-- measured:coldstart-compare --> marker in $doc" >&2; exit 1; }
  awk -v f="$work/table.md" '
    /<!-- measured:coldstart-compare -->/ { print; while ((getline l < f) > 0) print l; skip = 1; next }
    /<!-- \/measured:coldstart-compare -->/ { skip = 0 }
    !skip' "$doc" > "$work/doc" && cp "$work/doc" "$doc"
  echo "coldstart-compare: wrote the table into $doc"
fi
