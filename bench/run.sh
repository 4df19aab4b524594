#!/bin/sh
# Benchmarks against named baselines (bench/README.md):
#  - load: the example models, a 10,000-layer network, a network with 256 MiB of weights and a
#    MobileNet v1 (all written by Arm NN's serializer into a temporary folder), against Arm NN 20.08;
#  - run: the cpu backend on that MobileNet against Arm NN CpuRef, SGEMM against plain Eigen,
#    elementwise Add against memcpy;
#  - scale: every format's reader and writer on 10k, 100k (and 1M) repeated elements, against
#    flatc, protoc, json.load and Arm NN's deserializer (bench/scale.py; about 15 minutes);
#  - zoo: the cpu backend on torchvision architectures against ONNX Runtime's CPU EP (npm
#    onnxruntime-node in bench/node_modules) and PyTorch, 1 and 2 threads, float models and
#    their QLinearConv forms (bench/zoo.py --quantized; about 10 minutes; needs the Python module
#    of BUILD_DIR).
# usage: bench/run.sh BUILD_DIR [load|run|scale|zoo ...]   (default: all four)
set -eu
build=${1:?usage: bench/run.sh BUILD_DIR [load|run|scale|zoo ...]}
shift
parts=${*:-load run scale zoo}
root=$(cd "$(dirname "$0")/.." && pwd)
peer="$build/bin/nnbridge-armnn-peer"
bench="$build/bin/nnbridge-bench-load"
bench_cpu="$build/bin/nnbridge-bench-cpu"
case " $parts " in
  *" load "*|*" run "*)
    for t in "$peer" "$bench" "$bench_cpu"; do
      [ -x "$t" ] || { echo "bench/run.sh: $t is not built (needs libarmnn-dev; cmake --build $build)" >&2; exit 1; }
    done
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnbridge-bench.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT INT TERM
    echo "Writing the benchmark networks with Arm NN 20.08 (about 320 MiB, in $tmp)..."
    "$peer" bench-models "$tmp" >/dev/null
    ;;
esac
for part in $parts; do
  case $part in
    load)
      "$bench" table "$root"/examples/models/*.armnn "$tmp"/chain_10k.armnn "$tmp"/weights_256mib.armnn "$tmp"/mobilenet_v1.armnn
      echo
      ;;
    run)
      echo "Run time of the cpu backend (Arm NN CpuRef takes seconds per MobileNet run)..."
      "$bench_cpu" --peer "$peer" --model "$tmp"/mobilenet_v1.armnn --inputs "$tmp"/mobilenet_v1/inputs \
        --expected "$tmp"/mobilenet_v1/outputs
      echo
      ;;
    scale)
      echo "Scale of every reader and writer (bench/scale.py)..."
      /usr/bin/python3 "$root"/bench/scale.py "$build"
      ;;
    zoo)
      echo "Zoo models on cpu, ONNX Runtime and PyTorch, float and QLinearConv (bench/zoo.py --quantized)..."
      /usr/bin/python3 "$root"/bench/zoo.py "$build" --quantized
      echo
      ;;
    *)
      echo "bench/run.sh: unknown part '$part' (load, run, scale, zoo)" >&2
      exit 2
      ;;
  esac
done
