#!/bin/sh
# check-docs.sh: the generated docs regenerate byte for byte.
#
# Each generated doc is regenerated into a temporary directory by the
# command that owns it, and must equal the committed file exactly, so a
# number edited by hand (or a generator changed without regenerating) fails:
#
#   docs/PRIVACY_LEVELS.md   go run ./research/cmd/wvcalibrate; its named-level
#                            table, between generated:wordveil-stats markers,
#                            is also exactly `wordveil stats -markdown`
#                            (presets, N_w, S_w, P_avg, the metric-loss cost
#                            per word, γ at the presets, useful ε bands;
#                            seeded, so deterministic); its context-attacker
#                            table is rendered from the committed
#                            docs/eval/context-attack.jsonl (measured by
#                            wordveil-research eval context, minutes of CPU)
#   docs/eval/RESULTS.md     go run ./research/cmd/wordveil-research eval report
#   and docs/eval/fig-*      (from the committed results in docs/eval)
#   docs/TYPED_TEXT.md,      go run ./research/cmd/wordveil-research eval presets
#   between <!-- generated:eval-presets ... --> and <!-- /generated:eval-presets -->
#   docs/eval/PRESETS.md,    go run ./research/cmd/wordveil-research eval presets
#   between <!-- generated:eval-presets-typed ... -->  -typed docs/eval/results-presets-typed.jsonl
#   and <!-- /generated:eval-presets-typed -->        (the committed results of the study and
#                            of eval levels at the typed-text presets, and the uniform presets')
#   docs/eval/MIA.md         go run ./research/cmd/wordveil-research eval mia-report
#   docs/eval/PLANE.md and   go run ./research/cmd/wordveil-research eval plane-report
#   docs/eval/fig-levels-plane.{png,svg}   (from the committed docs/eval/results-plane.jsonl,
#                            docs/eval/brr-bound.jsonl and the embedded asset's presets;
#                            measured by eval plane, an hour or more of CPU, never here)
#   internal/levelfacts/bounds_measured.go   go run ./research/cmd/wordveil-research eval brrbound-go
#                            (BRR's two-sided top-1 bounds in wordveil stats, from docs/eval/brr-bound.jsonl)
#                            (the committed docs/eval/results-mia.jsonl and the
#                            embedded asset's presets)
#
# A generated part of a hand-written page sits between such markers; the
# lines strictly between them must be exactly the command's output.
#
# No network. About 45 s of CPU time, almost all of it wvcalibrate's
# sampling, which runs its mechanisms in parallel: one minute wall-clock
# was measured on a 2-core machine shared with other jobs (load 4).
set -eu
GO=${GO:-go}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

regen() { # regen NAME COMMAND...: run COMMAND, its log kept for failures
	name=$1
	shift
	if ! "$@" >"$tmp/$name.log" 2>&1; then
		cat "$tmp/$name.log" >&2
		echo "check-docs: $name: the generator failed" >&2
		exit 1
	fi
}

compare() { # compare GENERATED COMMITTED HOW-TO-REGENERATE [NAME-IN-MESSAGES]
	if ! cmp -s "$1" "$2"; then
		if [ -f "$2" ] && case "$2" in *.md) true ;; *) false ;; esac; then
			diff -u "$2" "$1" | head -40 >&2 || true
		fi
		echo "check-docs: ${4:-$2} differs from its generator's output; regenerate it: $3" >&2
		fail=1
	fi
}

regen wvcalibrate sh -c "$GO run ./research/cmd/wvcalibrate > '$tmp/PRIVACY_LEVELS.md'"
compare "$tmp/PRIVACY_LEVELS.md" docs/PRIVACY_LEVELS.md "go run ./research/cmd/wvcalibrate > docs/PRIVACY_LEVELS.md"

mkdir "$tmp/eval"
regen eval-report "$GO" run ./research/cmd/wordveil-research eval report -out "$tmp/eval"
n=0
for f in "$tmp"/eval/*; do
	compare "$f" "docs/eval/$(basename "$f")" "make eval-report"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "check-docs: eval report wrote nothing" >&2; exit 1; }

# block FILE NAME: the lines strictly between FILE's generated:NAME markers.
block() {
	awk -v opening="<!-- generated:$2 " -v closing="<!-- /generated:$2 -->" '
		index($0, opening) == 1 { inside = 1; found++; next }
		$0 == closing { inside = 0; next }
		inside { print }
		END { if (found != 1) exit 1 }' "$1"
}

regen eval-presets sh -c "$GO run ./research/cmd/wordveil-research eval presets > '$tmp/eval-presets.md'"
if ! block docs/TYPED_TEXT.md eval-presets >"$tmp/eval-presets.committed.md"; then
	echo "check-docs: docs/TYPED_TEXT.md: want exactly one generated:eval-presets block" >&2
	fail=1
fi
compare "$tmp/eval-presets.md" "$tmp/eval-presets.committed.md" "go run ./research/cmd/wordveil-research eval presets, pasted between docs/TYPED_TEXT.md's generated:eval-presets markers" docs/TYPED_TEXT.md:generated:eval-presets

typed="-typed docs/eval/results-presets-typed.jsonl"
regen eval-presets-typed sh -c "$GO run ./research/cmd/wordveil-research eval presets $typed > '$tmp/eval-presets-typed.md'"
if ! block docs/eval/PRESETS.md eval-presets-typed >"$tmp/eval-presets-typed.committed.md"; then
	echo "check-docs: docs/eval/PRESETS.md: want exactly one generated:eval-presets-typed block" >&2
	fail=1
fi
compare "$tmp/eval-presets-typed.md" "$tmp/eval-presets-typed.committed.md" "go run ./research/cmd/wordveil-research eval presets $typed, pasted between docs/eval/PRESETS.md's generated:eval-presets-typed markers" docs/eval/PRESETS.md:generated:eval-presets-typed

regen eval-mia sh -c "$GO run ./research/cmd/wordveil-research eval mia-report > '$tmp/MIA.md'"
compare "$tmp/MIA.md" docs/eval/MIA.md "go run ./research/cmd/wordveil-research eval mia-report > docs/eval/MIA.md"

mkdir "$tmp/plane"
regen eval-plane-report "$GO" run ./research/cmd/wordveil-research eval plane-report -out "$tmp/plane"
for f in "$tmp"/plane/*; do
	compare "$f" "docs/eval/$(basename "$f")" "go run ./research/cmd/wordveil-research eval plane-report"
done
[ -f "$tmp/plane/PLANE.md" ] || { echo "check-docs: eval plane-report wrote no PLANE.md" >&2; exit 1; }

regen eval-brrbound-go sh -c "$GO run ./research/cmd/wordveil-research eval brrbound-go > '$tmp/bounds_measured.go'"
compare "$tmp/bounds_measured.go" internal/levelfacts/bounds_measured.go "go run ./research/cmd/wordveil-research eval brrbound-go > internal/levelfacts/bounds_measured.go"

# The named-level table of PRIVACY_LEVELS.md is what the CLI prints.
regen wordveil-stats sh -c "$GO run ./cmd/wordveil stats -markdown > '$tmp/wordveil-stats.md'"
if ! block docs/PRIVACY_LEVELS.md wordveil-stats >"$tmp/wordveil-stats.committed.md"; then
	echo "check-docs: docs/PRIVACY_LEVELS.md: want exactly one generated:wordveil-stats block" >&2
	fail=1
fi
compare "$tmp/wordveil-stats.md" "$tmp/wordveil-stats.committed.md" "go run ./research/cmd/wvcalibrate > docs/PRIVACY_LEVELS.md (its table is \`wordveil stats -markdown\`)" docs/PRIVACY_LEVELS.md:generated:wordveil-stats

[ "$fail" -eq 0 ] || exit 1
echo "check-docs: docs/PRIVACY_LEVELS.md (its level table also equal to \`wordveil stats -markdown\`), the $n files of docs/eval's report, docs/TYPED_TEXT.md's eval-presets table and docs/eval/PRESETS.md's typed-presets table, docs/eval/MIA.md, docs/eval/PLANE.md with its figure and internal/levelfacts/bounds_measured.go regenerated byte for byte"
