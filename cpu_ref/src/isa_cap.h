// The environment variable NNBRIDGE_CPU_SIMD, read once per process by every run-time choice of
// instruction set in the cpu backend (the vector kernels, sgemm, igemm), so that they agree.
#pragma once

namespace nnbridge::cpu_ref {

/// The highest instruction set NNBRIDGE_CPU_SIMD allows: "sse2", "sse4.2", "avx2" or "avx512f"
/// (any case). Unset or empty: none, the CPU decides. Any other value: none, and one warning on
/// standard error naming the value and the accepted ones.
enum class IsaCap { None, Sse2, Sse4_2, Avx2, Avx512f };
IsaCap isa_cap();

/// The name of a cap as the variable spells it ("" for None).
const char* isa_cap_name(IsaCap cap);

}  // namespace nnbridge::cpu_ref
