#!/bin/bash
# Submits slurm.sbatch as an array of N shards and, after every task has ended (afterany: also
# when one failed), a merge job whose output is the run's one summary; its exit code is the
# run's (0 every case passed or was skipped, 1 a case failed, 3 a shard left no results file).
#
#   examples/scale-out/slurm-submit.sh N CORPUS OUT [--known-failures F]
#   CONFORMANCE_OPTS="--backends cpu,opencl -B opencl.fallback=cpu" examples/scale-out/slurm-submit.sh ...
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 N CORPUS OUT [--known-failures F]" >&2; exit 2; }
n=$1 corpus=$(realpath "$2") out=$(realpath -m "$3")
shift 3
here=$(dirname "$(realpath "$0")")
nnbridge=${NNBRIDGE:-nnbridge}
mkdir -p "$out"
rm -f "$out"/shard-*.json

jid=$(sbatch --parsable --array="0-$((n - 1))" \
  --export="ALL,CORPUS=$corpus,OUT=$out,NNBRIDGE=$nnbridge" "$here/slurm.sbatch")
jid=${jid%%;*}  # "<id>;<cluster>" on a multi-cluster setup
merge=$(printf '%q ' "$nnbridge" conformance merge)
extra=$(printf '%q ' "$@")
sbatch --parsable --job-name=nnbridge-conformance-merge --dependency="afterany:$jid" \
  --output="$out/merge.log" --wrap "$merge $(printf '%q/' "$out")shard-*.json $extra"
echo "array job $jid; the summary will be in $out/merge.log" >&2
