#!/bin/sh
# Load benchmark: nnbridge vs Arm NN 20.08 on the example models, a 10,000-layer network and a
# network with 256 MiB of weights (both written by Arm NN's serializer into a temporary folder).
# usage: bench/run.sh BUILD_DIR
set -eu
build=${1:?usage: bench/run.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
peer="$build/bin/nnbridge-armnn-peer"
bench="$build/bin/nnbridge-bench-load"
for t in "$peer" "$bench"; do
  [ -x "$t" ] || { echo "bench/run.sh: $t is not built (needs libarmnn-dev; cmake --build $build)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnbridge-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "Writing the benchmark networks with Arm NN 20.08 (about 300 MiB, in $tmp)..."
"$peer" bench-models "$tmp" >/dev/null
"$bench" table "$root"/examples/models/*.armnn "$tmp"/chain_10k.armnn "$tmp"/weights_256mib.armnn
