#!/usr/bin/env bash
# One conformance run split into N shards with GNU parallel (Debian package `parallel`), then
# merged: the same per-case lines, summary and exit code as `nnbridge conformance DIR` alone.
#
#   examples/scale-out/parallel.sh [-n N] [-o OUT] DIR [conformance options...]
#
#   -n N    shards (default: the number of cores); each shard checks its cases with --jobs 1,
#           so N shards keep N cores busy
#   -o OUT  folder for shard-<K>.json and shards.log (default: a temporary folder, removed)
#   NNBRIDGE=path  the nnbridge binary (default: `nnbridge` on PATH, else build/bin/nnbridge)
#   PARALLEL_OPTS  more options for parallel, e.g. "--sshloginfile nodes.txt --workdir ." to spread
#                  the shards over machines that see DIR and OUT at the same paths
# The conformance options go to every shard (--backends, -B, --filter, --timeout, --flatc,
# --schemas); --known-failures F goes to the shards (for their logs) and to merge. Exit code:
# merge's (0 every case passed or was skipped, 1 a case failed, 3 a shard left no results file).
set -euo pipefail

n=$(nproc)
out=
while getopts n:o: opt; do
  case $opt in
    n) n=$OPTARG ;;
    o) out=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-n N] [-o OUT] DIR [conformance options...]" >&2; exit 2; }
dir=$1
shift
# The binary: $NNBRIDGE, else `nnbridge` on PATH, else the one `make` built beside this script.
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${NNBRIDGE:-}" ]; then
  nnbridge=$NNBRIDGE
elif command -v nnbridge >/dev/null 2>&1; then
  nnbridge=nnbridge
elif [ -x "$here/../../build/bin/nnbridge" ]; then
  nnbridge=$here/../../build/bin/nnbridge
else
  echo "$0: no nnbridge binary: set NNBRIDGE=path, put nnbridge on PATH, or run make first" >&2
  exit 2
fi

known=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[$i]}" = --known-failures ] && [ $((i + 1)) -lt ${#args[@]} ]; then
    known=(--known-failures "${args[$((i + 1))]}")
  fi
done

if [ -z "$out" ]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/nnbridge-shards.XXXXXX")
  trap 'rm -rf "$out"' EXIT  # kept (the trap cleared) when a shard left no results, for its log
fi
mkdir -p "$out"
rm -f "$out"/shard-*.json

# Shards are numbered from 0 (as Slurm's array index and Kubernetes' completion index). A shard
# exits 1 when one of its cases failed: that is a result, not an error, so parallel's own status
# is not the run's; merge says which shard, if any, left no results file. -q: every argument
# reaches nnbridge as it is (paths with spaces); each shard's lines go to shards.log.
# shellcheck disable=SC2086
seq 0 $((n - 1)) | parallel -q --jobs "$n" ${PARALLEL_OPTS:-} \
  "$nnbridge" conformance "$dir" --shard "{}/$n" --results "$out/shard-{}.json" --jobs 1 "$@" \
  >"$out/shards.log" 2>&1 || true

shards=()
for ((k = 0; k < n; k++)); do
  [ -f "$out/shard-$k.json" ] && shards+=("$out/shard-$k.json")
done
if [ ${#shards[@]} -eq 0 ]; then
  trap - EXIT
  echo "$0: no shard wrote its results; see $out/shards.log" >&2
  exit 3
fi
rc=0
"$nnbridge" conformance merge "${shards[@]}" "${known[@]}" || rc=$?
exit $rc
