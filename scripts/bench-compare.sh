#!/usr/bin/env bash
# Before/after benchmarks of the SDK in one run (docs/BENCHMARKS.md, "Front
# door"): every offered mechanism per word in-process (internal/mechanism
# BenchmarkPrivatize for BRR, 1-DG, 1-DT and TEM-Hamming, BenchmarkSanText,
# BenchmarkCusTextPrivatize), the same six through the CLI on the same
# 1 MB of text (BenchmarkCLI/<mechanism>: CPU time, user + system, per
# word of `wordveil privatize -seed 1` at each mechanism's balanced ε of
# today, given explicitly so both commits run the same ε, less that of a
# one-word run: the open is not a per-word cost),
# the embedded asset's load (BenchmarkLoadDefault*), a 20-word text
# through the mobile binding (BenchmarkPrivatize20Words) and, where the
# SDK's API package (the root, or core/ since it moved) has them, a keyboard's opens (BenchmarkOpen*), for two
# commits.
# The test binaries of both are built first, then run alternately COUNT
# times each, so that both see the same machine; benchstat compares them.
#   scripts/bench-compare.sh OLD_COMMIT [NEW_COMMIT, default HEAD] [COUNT, default 8]
# Packages moved between the commits are found by name (mechanism or
# internal/mechanism, the API in . or core); the load benchmarks are in
# internal/assets before the asset moved to assets/ (d075295), in
# internal/wva since.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
GO=${GO:-go}
old=$1 new=${2:-HEAD} count=${3:-8}
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1 || true; git worktree remove --force "$work/new" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
# pkgdir TREE NAME: the directory of package NAME in TREE (moved or not).
pkgdir() { if [ "$2" = root ]; then if [ -d "$1/core" ]; then echo core; else echo .; fi; elif [ -d "$1/internal/$2" ]; then echo "internal/$2"; elif [ "$2" = assets ] && [ -d "$1/internal/wva" ]; then echo internal/wva; else echo "$2"; fi; }
declare -A bench=([mechanism]='^BenchmarkPrivatize$/^(BRR|1-DG|1-DT|TEM-hamming)$/^eps=[0-9.]*$ ^BenchmarkSanText$/^santext$ ^BenchmarkCusTextPrivatize$' [assets]='^BenchmarkLoadDefault' [mobile]='^BenchmarkPrivatize20Words$'
  [root]='^BenchmarkOpen(Fresh|Warm|FirstCall)$')
# pkgs TREE: the packages benchmarked in TREE (the API package's opens
# only where it has them).
pkgs() { echo mechanism assets mobile; [ -f "$1/open_bench_test.go" ] || [ -f "$1/core/open_bench_test.go" ] && echo root; true; }
for side in old new; do
  rev=${!side}
  git worktree add -q --detach "$work/$side" "$rev"
  for p in $(pkgs "$work/$side"); do
    d=$(pkgdir "$work/$side" "$p")
    (cd "$work/$side" && "$GO" test -c -o "$work/$side-$p.test" "./$d") >/dev/null
  done
done
# The CLI of both commits, and 1 MB of text: the new tree's docs and
# README (prose with some code), repeated.
declare -A cliEps=([brr]=0.5333 [1dg]=0.6293 [1dt]=1.263 [tem-hamming]=0.1862 [santext]=0.1862 [custext]=17.47)
for side in old new; do
  (cd "$work/$side" && "$GO" build -o "$work/$side-wordveil" ./cmd/wordveil)
done
while [ "$(stat -c %s "$work/text" 2>/dev/null || echo 0)" -lt 1000000 ]; do cat "$work/new"/docs/*.md "$work/new/README.md" >> "$work/text"; done
head -c 1000000 "$work/text" > "$work/text1m" && mv "$work/text1m" "$work/text"
words=$(wc -w < "$work/text")
echo word > "$work/word"
# cpu SIDE MECHANISM FILE: the CPU seconds (user + system) of SIDE's CLI
# privatizing FILE.
cpu() {
  { TIMEFORMAT='%U %S'; time "$work/$1-wordveil" privatize -seed 1 -mechanism "$2" -epsilon "${cliEps[$2]}" < "$3" >/dev/null 2>&1; } 2>&1 | tail -1 | awk '{ print $1 + $2 }'
}
# cli SIDE: one run of each mechanism through SIDE's CLI, as benchmark
# lines in ns of CPU per word (the text's, less a one-word run's).
cli() {
  for m in "${!cliEps[@]}"; do
    awk -v m="$m" -v t="$(cpu "$1" "$m" "$work/text")" -v t0="$(cpu "$1" "$m" "$work/word")" -v w="$words" \
      'BEGIN { printf "BenchmarkCLI/%s 1 %.1f ns/word\n", m, (t - t0) * 1e9 / (w - 1) }'
  done
}
for i in $(seq "$count"); do
  for side in old new; do
    for p in $(pkgs "$work/$side"); do
      d=$(pkgdir "$work/$side" "$p")
      for re in ${bench[$p]}; do # a package's patterns, separated by spaces
        (cd "$work/$side/$d" && "$work/$side-$p.test" -test.run '^$' -test.bench "$re" -test.benchmem -test.count 1) \
          | grep -E '^(Benchmark|goos|goarch|cpu)' >> "$work/$side.txt"
      done
    done
    # After the test binaries' goos, goarch and cpu lines, so that every
    # round's CLI samples share one configuration and one benchstat table
    # (run first, the first round's came before any such line and made a
    # table of their own). No pkg lines are kept: the packages moved
    # between the commits compared.
    cli "$side" >> "$work/$side.txt"
  done
done
echo "old = $(git rev-parse --short "$old"), new = $(git rev-parse --short "$new"), $count runs each, alternating"
"$GO" run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da "old=$work/old.txt" "new=$work/new.txt"
