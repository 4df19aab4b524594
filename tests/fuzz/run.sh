#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD SECONDS [HARNESS...]: runs each libFuzzer harness built in BUILD/fuzz
# (all of them by default) for SECONDS seconds, one after another, on a working corpus in
# BUILD/fuzz/corpus/<harness> seeded from tests/fuzz/seeds.sh. A crash, a sanitizer report, an
# uncaught exception other than nnbridge::Error, a timeout (10 s for one input; FUZZ_TIMEOUT=S
# sets another: libFuzzer's clock is wall time, so a fuzzer at low priority on a busy machine
# needs more; re-time a slow input alone before calling it a finding) or running out of memory
# (2 GiB) leaves the input in BUILD/fuzz/findings/<harness>/ and fails the run.
# Exit 0 when no harness found anything.
set -uo pipefail
build=${1:?usage: run.sh BUILD SECONDS [HARNESS...]}
seconds=${2:-60}
shift 2 || shift $#
here=$(cd "$(dirname "$0")" && pwd)
fuzz="$build/fuzz"
# The seed folder is assembled once; remove BUILD/fuzz/seeds to assemble it again.
[[ -d $fuzz/seeds ]] || "$here/seeds.sh" "$fuzz/seeds" "$build" >/dev/null
harnesses=("$@")
if [[ ${#harnesses[@]} -eq 0 ]]; then
  for f in "$fuzz"/fuzz_*; do [[ -x $f ]] && harnesses+=("$(basename "$f")"); done
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=()
for h in "${harnesses[@]}"; do
  name=${h#fuzz_}
  mkdir -p "$fuzz/corpus/$name" "$fuzz/findings/$name"
  seeds="$fuzz/seeds/$name"
  [[ -d $seeds ]] || seeds=
  dict="$here/dicts/$name.dict"
  [[ -f $dict ]] || dict=
  echo "fuzz: $h for ${seconds}s"
  if ! "$fuzz/$h" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -max_len=1048576 \
      -print_final_stats=1 ${dict:+-dict="$dict"} -artifact_prefix="$fuzz/findings/$name/" \
      "$fuzz/corpus/$name" ${seeds:+"$seeds"} >"$fuzz/$name.log" 2>&1; then
    failed+=("$h")
    echo "fuzz: $h FOUND A PROBLEM: $(ls "$fuzz/findings/$name" | tail -1) (log: $fuzz/$name.log)"
    grep -m3 -E "ERROR|runtime error|SUMMARY|terminate|uncaught" "$fuzz/$name.log" | sed 's/^/  /'
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$fuzz/$name.log" | tr '\n' ' ' | sed 's/^/  /'
    echo
  fi
done
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: findings in ${failed[*]} (see $fuzz/findings/; keep each as tests/fuzz/regressions/<reader>/<name>)"
  exit 1
fi
echo "fuzz: ${#harnesses[@]} harnesses, no findings"
