# Instrumented builds, chosen at configure time; each instruments the whole build (every
# library and executable), so use a build folder of its own for it.
#
#   NNBRIDGE_SANITIZE    AddressSanitizer + UndefinedBehaviorSanitizer (gcc or clang); any UB
#                        report aborts (-fno-sanitize-recover), so ctest sees it as a failure.
#                        `make test-sanitize` (build-asan/).
#   NNBRIDGE_BUILD_FUZZ  the libFuzzer harnesses in tests/fuzz (clang only), with ASan + UBSan
#                        and libFuzzer's coverage instrumentation. `make fuzz` (build-fuzz/).
option(NNBRIDGE_SANITIZE "Build everything with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(NNBRIDGE_BUILD_FUZZ "Build the libFuzzer harnesses in tests/fuzz (clang only)" OFF)

set(_nnbridge_san -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
if(NNBRIDGE_BUILD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "NNBRIDGE_BUILD_FUZZ needs clang (libFuzzer); configure with CXX=clang++")
  endif()
  # -O1 and line tables only (after the build type's -O2 -g, so they win): what libFuzzer's
  # docs suggest, and a build of half the time on small machines.
  add_compile_options(${_nnbridge_san} -fsanitize=fuzzer-no-link -O1 -gline-tables-only)
  add_link_options(-fsanitize=address,undefined)
elseif(NNBRIDGE_SANITIZE)
  add_compile_options(${_nnbridge_san})
  add_link_options(-fsanitize=address,undefined)
endif()
