#!/bin/sh
# Regenerates tests/golden/armnn with the Arm NN 20.08 peer harness.
# usage: tests/peers/armnn/regenerate.sh BUILD_DIR   (BUILD_DIR holds bin/nnbridge-armnn-peer)
set -eu
build=${1:?usage: regenerate.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/../../.." && pwd)
peer="$build/bin/nnbridge-armnn-peer"
[ -x "$peer" ] || { echo "regenerate.sh: $peer not built (needs libarmnn-dev)" >&2; exit 1; }
out="$root/tests/golden/armnn"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$peer" generate "$tmp" 2>/dev/null
# Keep README.md; replace every case folder.
find "$out" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
cp -r "$tmp"/. "$out"/
echo "regenerated $(ls -d "$out"/*/ | wc -l) cases in $out"
