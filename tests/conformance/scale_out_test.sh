#!/usr/bin/env bash
# ctest conformance.scale_out.parallel: examples/scale-out/parallel.sh with 4 shards on the bundled
# corpus must print what the unsharded run prints (the same per-case lines, as a set, and the same
# summary) and exit with the same code. A known-failures list naming a passing case makes both
# runs fail (exit 1), so agreement on a failure is checked too, and merge's list is the one used.
#   scale_out_test.sh NNBRIDGE SOURCE_DIR
set -euo pipefail
nnbridge=$1 src=$2
command -v parallel >/dev/null || { echo "skipped: GNU parallel is not installed (Debian package parallel)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnbridge-scale-out.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

printf '{"golden/armnn/add_float": "listed on purpose by scale_out_test.sh: it passes, so the run fails"}\n' >"$tmp/known.json"

rc_whole=0
"$nnbridge" conformance "$src/tests/golden" --jobs 2 --known-failures "$tmp/known.json" >"$tmp/whole.txt" || rc_whole=$?
rc_shards=0
NNBRIDGE=$nnbridge "$src/examples/scale-out/parallel.sh" -n 4 -o "$tmp/shards" "$src/tests/golden" \
  --known-failures "$tmp/known.json" >"$tmp/merged.txt" || rc_shards=$?

# The unsharded run prints in completion order (--jobs 2), merge in name order: compare as sets.
head -n -1 "$tmp/whole.txt" | sort >"$tmp/whole.cases"
head -n -1 "$tmp/merged.txt" | sort >"$tmp/merged.cases"
fail=0
if ! diff "$tmp/whole.cases" "$tmp/merged.cases"; then echo "FAIL: the per-case lines differ (< unsharded, > merged)"; fail=1; fi
whole_summary=$(tail -n 1 "$tmp/whole.txt") merged_summary=$(tail -n 1 "$tmp/merged.txt")
[ "$whole_summary" = "$merged_summary" ] || { echo "FAIL: summary '$merged_summary', unsharded '$whole_summary'"; fail=1; }
[ "$rc_whole" = "$rc_shards" ] || { echo "FAIL: exit code $rc_shards, unsharded $rc_whole"; fail=1; }
# Not a vacuous agreement: the listed case fails in both, every shard ran, and the cases split.
[ "$rc_whole" = 1 ] || { echo "FAIL: the unsharded run exited $rc_whole, not 1"; fail=1; }
grep -q '^FAIL golden/armnn/add_float: listed as a known failure but passes' "$tmp/merged.txt" ||
  { echo "FAIL: merge did not apply --known-failures"; fail=1; }
for k in 0 1 2 3; do
  n=0
  [ -f "$tmp/shards/shard-$k.json" ] && n=$(grep -c '"name"' "$tmp/shards/shard-$k.json")
  total=$(wc -l <"$tmp/whole.cases")
  [ "$n" -gt 0 ] && [ "$n" -lt "$total" ] || { echo "FAIL: shard $k holds $n of $total cases"; fail=1; }
done
echo "unsharded: $whole_summary (exit $rc_whole); 4 shards merged: $merged_summary (exit $rc_shards)"
exit $fail
