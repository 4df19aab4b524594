#!/usr/bin/env bash
# `make demo`: nnbridge on the bundled Arm NN models (written by Arm NN 20.08, see
# examples/models/README.md). For each model it
#   1. prints `nnbridge info`;
#   2. converts .armnn -> .json -> .armnn in a temporary folder and asks flatc (the independent
#      decoder, with the released Arm NN schema) whether the result decodes to the same content;
#   3. runs the converted file on nnbridge's `cpu` backend with the bundled inputs and compares
#      the outputs, with NumPy, to the outputs Arm NN 20.08 CpuRef computed from the original file
#      (examples/models/<name>/outputs/); when the Arm NN peer harness is built, Arm NN CpuRef also
#      runs the converted file live, so both runtimes are seen to agree on nnbridge's output.
# Usage: examples/demo.sh BUILD_DIR        Exit status: 0 when every step agreed for every model.
set -euo pipefail

build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
nnbridge="$build/bin/nnbridge"
schema="$root/schemas/armnn/ArmnnSchema.fbs"
[ -x "$nnbridge" ] || { echo "demo: $nnbridge is not built" >&2; exit 2; }
[ -f "$schema" ] || { echo "demo: $schema is missing" >&2; exit 2; }
peer="$build/bin/nnbridge-armnn-peer"
python=/usr/bin/python3  # Debian's, which has NumPy (scripts/install-deps.sh)
compare() { "$python" "$root/examples/compare_npy.py" "$@"; }

shopt -s nullglob
models=("$root"/examples/models/*.armnn)
if [ ${#models[@]} -eq 0 ]; then
  models=("$root"/../shared/samples/armnn/*/model.armnn)
fi
[ ${#models[@]} -gt 0 ] || { echo "demo: no models in examples/models/ or ../shared/samples/armnn/" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnbridge-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# flatc's JSON decoding of an .armnn file, into $tmp/flatc/<tag>/.
decode() {
  mkdir -p "$tmp/flatc/$2"
  # flatc warns about the schema's camelCase field names (Arm NN's own): keep only real errors.
  if ! flatc --raw-binary --json --strict-json --defaults-json -o "$tmp/flatc/$2" "$schema" -- "$1" \
      2>"$tmp/flatc.log"; then
    grep -v ': warning: ' "$tmp/flatc.log" >&2
    echo "demo: flatc cannot decode $1" >&2
    return 1
  fi
  echo "$tmp/flatc/$2/$(basename "${1%.*}").json"
}

failed=0
for model in "${models[@]}"; do
  name=$(basename "$model" .armnn)
  [ "$name" = model ] && name=$(basename "$(dirname "$model")")
  echo "== $name  (${model#"$root"/})"
  "$nnbridge" info "$model" | sed 's/^/   /'
  "$nnbridge" convert "$model" "$tmp/$name.json" >/dev/null
  "$nnbridge" convert "$tmp/$name.json" "$tmp/$name.armnn" >/dev/null
  before=$(decode "$model" "$name.orig") || exit 1
  after=$(decode "$tmp/$name.armnn" "$name.back") || exit 1
  if cmp -s "$before" "$after"; then
    echo "   armnn -> json -> armnn: identical (flatc decodes both to the same $(wc -c <"$before") bytes of JSON)"
  else
    echo "   armnn -> json -> armnn: DIFFERENT under flatc:"
    diff "$before" "$after" | head -20 | sed 's/^/     /'
    failed=1
  fi
  data="$(dirname "$model")/$name"
  if [ -d "$data/inputs" ] && [ -d "$data/outputs" ]; then
    "$nnbridge" run "$tmp/$name.armnn" --backend cpu --inputs "$data/inputs" --outputs "$tmp/$name.cpu" >/dev/null
    echo "   nnbridge run (cpu) on the converted file vs Arm NN CpuRef on the original:"
    compare "$tmp/$name.cpu" "$data/outputs" || failed=1
    if [ -x "$peer" ]; then
      "$peer" run "$tmp/$name.armnn" "$data/inputs" "$tmp/$name.cpuref"
      echo "   Arm NN CpuRef, live, on the converted file vs the same expected outputs:"
      compare "$tmp/$name.cpuref" "$data/outputs" || failed=1
    fi
  fi
  echo
done

if [ $failed -eq 0 ]; then
  echo "demo: all ${#models[@]} models round-tripped identically and computed what Arm NN CpuRef computes"
else
  echo "demo: some models did not round-trip identically or computed something else" >&2
fi
exit $failed
