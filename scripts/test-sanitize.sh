#!/usr/bin/env bash
# scripts/test-sanitize.sh BUILD: runs the tests of a build configured with -DNNBRIDGE_SANITIZE=ON
# (`make test-sanitize`) under AddressSanitizer + UndefinedBehaviorSanitizer. Any report fails
# the test that made it (UBSan halts; ASan aborts), leaks included.
#
# NNBRIDGE_SANITIZE_EXCLUDE: a ctest regex of tests not to run here. Empty by default: no test
# has yet been found that cannot run under the sanitizers (add one here with the reason).
set -euo pipefail
build=${1:?usage: test-sanitize.sh BUILD}
exclude=${NNBRIDGE_SANITIZE_EXCLUDE-}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
args=(--test-dir "$build" --output-on-failure -j2)
[[ -n $exclude ]] && args+=(-E "$exclude")
exec ctest "${args[@]}"
