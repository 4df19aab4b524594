#!/usr/bin/env bash
# tests/fuzz/seeds.sh OUT [BUILD]: assembles one seed folder per harness under OUT (OUT/<harness>/)
# from real files, by path: tests/golden, examples/models, ../shared/samples when present, the
# seeds in tests/fuzz/seeds and the kept findings in tests/fuzz/regressions. Files are symlinked, never copied into the tree.
# BUILD (a build folder configured from this tree) supplies the generated TFLite settings
# schema, from which flatc and protoc make the binary settings forms. When a plain build's CLI
# exists (NNBRIDGE_CLI, else build/bin/nnbridge), it also converts the Arm NN models into the
# other graph formats and the IR JSON, and the settings samples into every form.
set -euo pipefail
out=${1:?usage: seeds.sh OUT [BUILD]}
build=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${NNBRIDGE_SHARED_DIR:-$root/../shared}/samples
cli=${NNBRIDGE_CLI:-$root/build/bin/nnbridge}

rm -rf "$out"
mkdir -p "$out"
link() {  # link HARNESS FILE...: symlinks each existing FILE into OUT/HARNESS, named uniquely
  local h=$1; shift
  mkdir -p "$out/$h"
  local f
  for f in "$@"; do
    [[ -f $f ]] || continue
    ln -sf "$(realpath "$f")" "$out/$h/$(realpath "$f" | md5sum | cut -c1-12)-$(basename "$f")"
  done
}
shopt -s nullglob globstar

golden=$root/tests/golden
seeds=$root/tests/fuzz/seeds
# The same files as the smoke tests' (tests/fuzz/CMakeLists.txt), negative goldens included:
# a rejected file is a good starting point for mutations that are accepted.
armnn=("$golden"/{armnn,armnn_post2008,armnn_wild,onnx_style}/*/model.armnn "$golden"/{negative/armnn,armnn_wild/negative}/*/model.armnn
       "$root"/examples/models/*.armnn "$shared"/armnn/*/model.armnn "$shared"/armnn_upstream_compat/*.armnn)
link armnn "${armnn[@]}"
link vkgraph "$golden"/{vkgraph,onnx_style,negative/vkgraph}/*/model.vkgraph "$shared"/vkgraph/add_example.bin
link vkdelegate "$golden"/{vkdelegate,negative/vkdelegate}/*/model.vkdelegate "$shared"/vkgraph/add_example_delegate.bin
link pte "$golden"/pte/*/model.pte
link ptd "$golden"/pte/*/*.ptd
link afcm "$golden"/{afcm,negative/afcm}/*/model.flow "$shared"/afcm/*.flow
# ONNX's own models (Debian libonnx-testdata: every operator's node test, small real models).
onnx_data=/usr/share/libonnx-testdata/data
link onnx "$onnx_data"/{node,simple,pytorch-operator,pytorch-converted}/*/model.onnx "$golden"/**/*.onnx
link npy "$golden"/**/*.npy "$root"/examples/models/**/*.npy "$shared"/**/*.npy
# TensorProto files: the inputs and outputs of ONNX's small real models and operator tests.
link onnx_tensor "$seeds"/onnx_tensor/*.pb "$onnx_data"/{simple,pytorch-operator}/*/test_data_set_*/*.pb "$onnx_data"/node/test_a*/test_data_set_*/*.pb
link armnn_json "$seeds"/armnn_json/*.armnn.json
link ir_json "$seeds"/ir_json/*.json "$seeds"/run/*.json "$golden"/json/*/model.json "$golden"/json/*/graph.json
link run "$seeds"/run/*.json "$seeds"/ir_json/*.json "$golden"/json/*/model.json
link openvino_custom "$shared"/openvino/*.xml "$root"/tests/config/openvino_custom/**/*.xml
link tflite_settings_protobinary "$seeds"/tflite_settings/*.pb
link tflite_settings_prototext "$seeds"/tflite_settings/*.txtpb
link tflite_settings_protojson "$seeds"/tflite_settings/*.pb.json
link tflite_settings_fb "$seeds"/tflite_settings/*.fb
link tflite_settings_fbjson "$seeds"/tflite_settings/*.fb.json "$shared"/tflite_settings/*.json
for h in "$root"/tests/fuzz/regressions/*/; do link "$(basename "$h")" "$h"*; done

gen="$out/.generated"
mkdir -p "$gen"
fbs=${build:+$build/generated/tflite_accel/configuration.fbs}
if [[ -n $fbs && -f $fbs ]]; then
  for j in "$shared"/tflite_settings/*.json; do
    flatc -b -o "$gen" --root-type tflite.TFLiteSettings "$fbs" "$j" 2>/dev/null || continue
  done
  for b in "$gen"/*.bin; do mv "$b" "$out/tflite_settings_fb/$(basename "$b" .bin).fb"; done
fi
for t in "$root"/tests/fuzz/seeds/tflite_settings/*.txtpb; do
  protoc --encode=tflite.proto.TFLiteSettings -I "$root/schemas/tflite_accel" configuration.proto \
    <"$t" >"$out/tflite_settings_protobinary/$(basename "$t" .txtpb).pb" 2>/dev/null || true
done

if [[ -x $cli ]]; then
  # Every 6th model is plenty of seeds (and keeps this under a minute on a small machine).
  i=0
  for m in "${armnn[@]}"; do
    i=$((i + 1))
    (( i % 6 == 1 )) || continue
    "$cli" convert "$m" "$out/vkgraph/cli$i.vkgraph" -O vkgraph.constants=external >/dev/null 2>&1 || true
    "$cli" convert "$m" "$out/vkdelegate/cli$i.vkdelegate" >/dev/null 2>&1 || true
    "$cli" convert "$m" "$out/onnx/cli$i.onnx" >/dev/null 2>&1 || true
    "$cli" convert "$m" "$out/armnn_json/cli$i.armnn.json" >/dev/null 2>&1 || true
    "$cli" dump "$m" >"$out/ir_json/cli$i.json" 2>/dev/null || rm -f "$out/ir_json/cli$i.json"
    [[ -f $out/ir_json/cli$i.json ]] && cp "$out/ir_json/cli$i.json" "$out/run/cli$i.json"
  done
  for s in "$shared"/tflite_settings/*.json; do
    n=$(basename "$s" .json)
    "$cli" config convert "$s" "$out/tflite_settings_protobinary/$n.pb" >/dev/null 2>&1 || true
    "$cli" config convert "$s" "$out/tflite_settings_prototext/$n.txtpb" >/dev/null 2>&1 || true
    "$cli" config convert "$s" "$out/tflite_settings_protojson/$n.pb.json" >/dev/null 2>&1 || true
  done
fi
rm -rf "$gen"
for d in "$out"/*/; do echo "seeds: $(basename "$d"): $(ls "$d" | wc -l)"; done
