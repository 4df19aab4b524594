#!/usr/bin/env bash
# Installs the Debian 12 packages that nnbridge's build, tests, demo and benchmarks need.
# Idempotent and quiet: installs only what is missing; works as root, or through sudo otherwise.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  flatbuffers-compiler libflatbuffers-dev
  glslang-tools
  nlohmann-json3-dev
  libprotobuf-dev protobuf-compiler
  libonnx-dev python3-onnx libonnx-testdata  # the onnx format (checker, shape inference, version converter); ONNX's test suite
  libeigen3-dev libxsimd-dev
  doctest-dev libbenchmark-dev
  pybind11-dev python3-dev python3-numpy python3-pytest python3-torch
  python3-pip python3-setuptools python3-wheel
  libpugixml-dev libcli11-dev
  clang libclang-rt-dev  # make fuzz: libFuzzer and the ASan/UBSan runtimes for clang
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd
  libarmnn-dev libarmnn22 libarmnn-cpuref-backend22
  time  # bench/scale.py: the peak RSS of each child (GNU time's %M)
  libgraphviz-dev graphviz  # nnbridge draw: Graphviz's cgraph + gvc libraries (layout and rendering)
  parallel  # examples/scale-out: sharded conformance with GNU parallel
  python3-torchvision  # examples/zoo: real architectures exported by PyTorch
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]]; then as_root=(); else as_root=(sudo -n); fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq >/dev/null
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
