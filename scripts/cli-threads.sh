#!/usr/bin/env bash
# CLI throughput by thread count (docs/BENCHMARKS.md, "wordveil privatize
# on every core"): builds bin/wordveil of the work tree, then privatizes
# about 1 MB of text (FILE, or a generated one: 30,000 lines of 8 words
# drawn with a fixed seed) with `-threads 1` and `-threads N`, alternating
# run by run so that both see the same machine, and prints per mechanism
# and thread count the median wall time, words per second of wall time and
# CPU seconds (user + sys), and each count's speed-up over -threads 1.
# Unseeded: the product path (crypto/rand). Run it on an idle machine; on
# a shared one the figures are rough.
#   scripts/cli-threads.sh [FILE]    (env RUNS, default 5; MECHS, default "1dg brr"; THREADS, default "1 2")
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
runs=${RUNS:-5} mechs=${MECHS:-1dg brr} threads=${THREADS:-1 2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/wordveil" ./cmd/wordveil
in=${1:-}
if [ -z "$in" ]; then
  in=$work/input.txt
  awk 'BEGIN { srand(1); n = split("the cat sat on a mat and then it went home to sleep because it was very tired today", w, " ");
    for (i = 0; i < 30000; i++) { l = ""; for (j = 0; j < 8; j++) l = l (j ? " " : "") w[int(rand() * n) + 1]; print l } }' > "$in"
fi
words=$(wc -w < "$in")
echo "input: $(wc -c < "$in") bytes, $words words; $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"
TIMEFORMAT='%R %U %S'
for m in $mechs; do
  for i in $(seq 1 "$runs"); do
    for t in $threads; do
      { time "$work/wordveil" privatize -mechanism "$m" -threads "$t" < "$in" > /dev/null; } 2>> "$work/$m-$t.txt"
    done
  done
done
echo "| mechanism | -threads | runs | median wall s | words/s (wall) | median CPU s | speed-up over -threads 1 |"
echo "|---|---|---|---|---|---|---|"
for m in $mechs; do
  base=
  for t in $threads; do
    med=$(awk '{print $1}' "$work/$m-$t.txt" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    cpu=$(awk '{print $2+$3}' "$work/$m-$t.txt" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')
    [ -z "$base" ] && base=$med
    awk -v m="$m" -v t="$t" -v r="$runs" -v med="$med" -v cpu="$cpu" -v w="$words" -v b="$base" \
      'BEGIN { printf "| %s | %s | %d | %.2f | %.0f | %.2f | %.2fx |\n", m, t, r, med, w/med, cpu, b/med }'
  done
done
