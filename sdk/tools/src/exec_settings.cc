// --settings and --benchmark-event for `run` and `validate` (exec_settings.h).
#include "exec_settings.h"

#include <sys/resource.h>
#include <time.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <limits>
#include <new>

#include "commands.h"
#include "nnbridge/error.h"

namespace nnbridge::cli {

namespace ta = nnbridge::config::tflite_accel;

void add_exec_flags(CLI::App* sub, ExecFlags& flags) {
  sub->add_option("--settings", flags.settings,
                  "TFLite acceleration settings (TFLiteSettings or ComputeSettings, any form `config` reads) choosing the "
                  "backend, threads and opencl fallback; explicit flags win (nnbridge/config/tflite_execution.h)");
  sub->add_option("--settings-message", flags.settings_message,
                  "The root message of --settings: TFLiteSettings or ComputeSettings (default: tried in that order)")
      ->check(CLI::IsMember({"TFLiteSettings", "ComputeSettings"}));
  sub->add_option("--benchmark-event", flags.benchmark_event,
                  "Write the run as a TFLite BenchmarkEvent (configuration.proto), form by extension as `config convert`, "
                  "proto-binary otherwise");
}

BackendOptions ExecSetup::options(const std::vector<std::string>& backends) const {
  BackendOptions o;
  o.threads = threads;
  if (fallback && std::find(backends.begin(), backends.end(), "opencl") != backends.end())
    o.options["opencl.fallback"] = *fallback;
  return o;
}

ExecSetup resolve(const ExecFlags& flags, BenchmarkEventWriter& event, std::string& source) {
  ExecSetup s;
  if (!flags.settings.empty()) {
    s.settings = ta::load_execution_settings(flags.settings, std::nullopt, flags.settings_message);
    for (const Issue& w : s.settings->warnings())
      std::cerr << flags.settings << ": warning: " << (w.where.empty() ? "" : w.where + ": ") << w.message << "\n";
    event.set_settings(*s.settings);
    source = ta::requested_delegate(*s.settings);
    s.choice = ta::execution_choice(*s.settings, flags.settings);
    if (s.choice->threads) s.threads = *s.choice->threads;
    s.fallback = s.choice->opencl_fallback;
  }
  if (flags.threads) s.threads = *flags.threads;
  if (flags.fallback) s.fallback = flags.fallback;
  return s;
}

namespace {

int32_t max_memory_kb() {
  rusage u{};
  if (::getrusage(RUSAGE_SELF, &u) != 0) return 0;
  // Linux reports ru_maxrss in kilobytes (getrusage(2)).
  return static_cast<int32_t>(std::min<long>(u.ru_maxrss, std::numeric_limits<int32_t>::max()));
}

void stamp(ta::BenchmarkRun& r) {
  r.wallclock_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  timespec ts{};
  if (::clock_gettime(CLOCK_BOOTTIME, &ts) == 0) r.boottime_us = int64_t{ts.tv_sec} * 1000000 + ts.tv_nsec / 1000;
}

}  // namespace

void BenchmarkEventWriter::write() {
  if (!enabled()) return;
  stamp(run_);
  const ta::Settings event = ta::benchmark_event(run_, settings_ ? &*settings_ : nullptr);
  ta::SaveOptions so;
  so.form = ta::form_from_path(out_).value_or(ta::Form::ProtoBinary);
  event.save(out_, so);
}

void BenchmarkEventWriter::end(bool ok) {
  run_.failed = false;
  run_.ok = ok;
  run_.max_memory_kb = max_memory_kb();
  write();
}

void BenchmarkEventWriter::error(ta::BenchmarkRun::Stage stage, const std::string& source) {
  if (!enabled()) return;
  run_.failed = true;
  run_.stage = stage;
  run_.error_source = source;
  // The exit code main() will give this exception (commands.h), and nnbridge's error code.
  try {
    throw;
  } catch (const Error& e) {
    run_.exit_code = kBadInput;
    run_.underlying_api_error = 1 + static_cast<int64_t>(e.code());  // 0 stays "none"
  } catch (const std::bad_alloc&) {
    run_.exit_code = kBadInput;
  } catch (const std::filesystem::filesystem_error&) {
    run_.exit_code = kBadInput;
  } catch (...) {
    run_.exit_code = kInternal;
  }
  try {
    write();
  } catch (const std::exception& e) {
    // The run's own error is the one to report; say that the event is missing too.
    std::cerr << "nnbridge: error: " << out_ << ": the benchmark event was not written: " << e.what() << "\n";
  }
}

}  // namespace nnbridge::cli
