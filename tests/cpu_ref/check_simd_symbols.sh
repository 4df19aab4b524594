#!/bin/sh
# The objects compiled with AVX/SSE4.2 flags (cpu_ref/src/simd/arch_*.cc) may export only
# symbols that name their own instruction set: any other global (weak) symbol, e.g. an
# out-of-line copy of an xsimd or standard-library inline function, could be the copy the
# linker keeps for every caller, and would then run AVX code on an SSE2-only machine.
# usage: check_simd_symbols.sh OBJECT...
set -eu
status=0
checked=0
for obj in "$@"; do
  case "$obj" in
    *arch_sse4_2*) isa=sse4_2 ;;
    *arch_avx2*) isa=avx2 ;;
    *arch_avx512f*) isa=avx512f ;;
    *) continue ;;
  esac
  checked=$((checked + 1))
  # Global definitions (text, data, weak, unique), demangled; personality references are data.
  bad=$("${NM:-nm}" -C --defined-only "$obj" | awk '$2 ~ /^[TDBRWVu]$/' | grep -v 'DW.ref.__gxx_personality_v0' | grep -v "xsimd::$isa" || true)
  if [ -n "$bad" ]; then
    echo "$obj exports symbols that do not name xsimd::$isa:"
    echo "$bad"
    status=1
  fi
done
[ "$checked" -gt 0 ] || { echo "no arch_*.o among the arguments"; exit 1; }
echo "$checked per-arch objects export only their own instantiations"
exit $status
