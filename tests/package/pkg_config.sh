#!/bin/bash
# Builds pkg_config_main.cc with the installed nnbridge.pc, against libnnbridge.so
# (`pkg-config --libs`) and libnnbridge.a (`pkg-config --static --libs`, the archive named in
# place of -lnnbridge), and checks that both print the case's inputs and outputs as case.json
# names them.
#
# usage: pkg_config.sh SOURCE_DIR PREFIX LIBDIR WORK_DIR CXX PYTHON CASE_DIR
set -euo pipefail
src=$1 prefix=$2 libdir=$3 work=$4 cxx=$5 python=$6 case=$7
rm -rf "$work"
mkdir -p "$work"
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
unset PKG_CONFIG_LIBDIR

launcher=()
if command -v ccache >/dev/null; then launcher=(ccache); fi
main="$src/tests/package/pkg_config_main.cc"
read -r -a cflags <<<"$(pkg-config --cflags nnbridge)"
read -r -a libs <<<"$(pkg-config --libs nnbridge)"
read -r -a static_libs <<<"$(pkg-config --static --libs nnbridge)"
echo "cflags: ${cflags[*]}"
echo "libs: ${libs[*]}"
echo "static libs: ${static_libs[*]}"
case " ${cflags[*]} " in *" -I$prefix/include "*) ;; *) echo "FAIL: Cflags do not name $prefix/include"; exit 1 ;; esac

"${launcher[@]}" "$cxx" -std=c++20 -O1 "${cflags[@]}" -c "$main" -o "$work/main.o"
"$cxx" "$work/main.o" "${libs[@]}" "-Wl,-rpath,$prefix/$libdir" -o "$work/shared"
static=()
for f in "${static_libs[@]}"; do
  if [ "$f" = -lnnbridge ]; then static+=("$prefix/$libdir/libnnbridge.a"); else static+=("$f"); fi
done
"$cxx" "$work/main.o" "${static[@]}" -o "$work/static"
dyn=$(readelf -d "$work/static")  # captured: with pipefail, grep -q quitting early would SIGPIPE readelf
if grep -q 'NEEDED.*libnnbridge' <<<"$dyn"; then echo "FAIL: the static build needs libnnbridge.so"; exit 1; fi

expected=$("$python" -c '
import json, sys
c = json.load(open(sys.argv[1]))
print("\n".join(["input " + n for n in c["inputs"]] + ["output " + n for n in c["outputs"]]))' "$case/case.json")
for exe in shared static; do
  got=$("$work/$exe" "$case/model.armnn")
  if [ "$got" != "$expected" ]; then
    printf 'FAIL: %s printed\n%s\ncase.json says\n%s\n' "$exe" "$got" "$expected"
    exit 1
  fi
  echo "$exe: inputs and outputs as case.json names them"
done
