#include "isa_cap.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace nnbridge::cpu_ref {

namespace {

IsaCap read_cap() {
  const char* v = std::getenv("NNBRIDGE_CPU_SIMD");
  if (!v || !*v) return IsaCap::None;
  std::string s(v);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (IsaCap cap : {IsaCap::Sse2, IsaCap::Sse4_2, IsaCap::Avx2, IsaCap::Avx512f})
    if (s == isa_cap_name(cap)) return cap;
  std::fprintf(stderr, "nnbridge: NNBRIDGE_CPU_SIMD=\"%s\" is not one of sse2, sse4.2, avx2, avx512f; ignored\n", v);
  return IsaCap::None;
}

}  // namespace

IsaCap isa_cap() {
  static const IsaCap cap = read_cap();
  return cap;
}

const char* isa_cap_name(IsaCap cap) {
  switch (cap) {
    case IsaCap::Sse2: return "sse2";
    case IsaCap::Sse4_2: return "sse4.2";
    case IsaCap::Avx2: return "avx2";
    case IsaCap::Avx512f: return "avx512f";
    case IsaCap::None: break;
  }
  return "";
}

}  // namespace nnbridge::cpu_ref
