#!/bin/bash
# Builds examples/cpp against an installed nnbridge with its CMake package and runs it on golden
# cases (check_consumer.py). ccache is used when present: the project is one source file.
#
# usage: consumer.sh SOURCE_DIR PREFIX WORK_DIR shared|static PYTHON CASE_DIR...
set -euo pipefail
src=$1 prefix=$2 work=$3 variant=$4 python=$5
shift 5

rm -rf "$work"
mkdir -p "$work"
args=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if command -v ccache >/dev/null; then args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
if [ "$variant" = static ]; then args+=(-Dnnbridge_USE_STATIC_LIBS=ON); fi
cmake -S "$src/examples/cpp" -B "$work/build" "${args[@]}"
cmake --build "$work/build"

# The package found must be the one just installed, and the program must link the variant asked for.
found=$(sed -n 's/^nnbridge_DIR:PATH=//p' "$work/build/CMakeCache.txt")
case "$found" in
  "$prefix"/*) ;;
  *) echo "FAIL: find_package(nnbridge) found $found, not the package under $prefix"; exit 1 ;;
esac
exe="$work/build/nnbridge_inspect"
if [ "$variant" = shared ]; then
  # Output captured first: with pipefail, `grep -q` quitting early would SIGPIPE the producer.
  libs=$(ldd "$exe")
  grep -q "=> $prefix/.*libnnbridge\.so" <<<"$libs" || { echo "FAIL: $exe does not load libnnbridge.so from $prefix"; ldd "$exe"; exit 1; }
else
  dyn=$(readelf -d "$exe")
  if grep -q 'NEEDED.*libnnbridge' <<<"$dyn"; then echo "FAIL: $exe needs libnnbridge.so"; exit 1; fi
fi

for case in "$@"; do
  "$python" "$src/tests/package/check_consumer.py" "$exe" "$case" "$work/$(basename "$case")"
done
