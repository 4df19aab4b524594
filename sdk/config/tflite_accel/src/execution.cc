// Settings -> backend choice, and a run -> BenchmarkEvent (nnbridge/config/tflite_execution.h).
#include "internal.h"
#include "nnbridge/config/tflite_execution.h"
#include "nnbridge/error.h"
#include "tflite_accel/configuration.pb.h"

namespace nnbridge::config::tflite_accel {

namespace pb = google::protobuf;
namespace tp = tflite::proto;

namespace {

bool is_root(const Settings& s, std::string_view name) { return s.message_name() == name; }

// An enum value kept as an unknown field (outside the enum, read from fb, fb-json or
// proto-binary) at exactly `path`, if any.
std::optional<uint64_t> unknown_enum_at(const pb::Message& root, const std::string& path) {
  for (const detail::UnknownAt& u : detail::unknown_fields(root))
    if (u.path == path && u.is_varint) return u.varint;
  return std::nullopt;
}

std::string enum_name(const pb::EnumDescriptor* e, int value) {
  const pb::EnumValueDescriptor* v = e->FindValueByNumber(value);
  return v ? std::string(v->name()) : std::to_string(value);
}

const std::string kAvailable =
    " (nnbridge runs delegate NONE and XNNPACK on backend cpu, and GPU with force_backend UNSET or OPENCL on backend opencl)";

}  // namespace

std::map<std::string, std::string, std::less<>> ExecutionChoice::backend_options() const {
  std::map<std::string, std::string, std::less<>> out;
  if (opencl_fallback) out["opencl.fallback"] = *opencl_fallback;
  return out;
}

Settings load_execution_settings(const std::filesystem::path& path, std::optional<Form> form, std::string_view message) {
  LoadOptions as;
  as.form = form;
  if (!message.empty()) {
    const auto name = resolve_message_name(message);
    if (name != "TFLiteSettings" && name != "ComputeSettings")
      throw Error(ErrorId::UnsupportedOther,
                  "settings for a run are a TFLiteSettings or a ComputeSettings, not " + std::string(message), path.string());
    as.message = *name;
    return Settings::load(path, as);
  }
  as.message = "TFLiteSettings";
  std::optional<Settings> tflite;
  std::optional<Error> tflite_error;
  try {
    tflite = Settings::load(path, as);
    if (detail::unknown_fields(detail::message_of(*tflite)).empty()) return std::move(*tflite);
  } catch (const Error& e) {
    if (e.code() == ErrorCode::Io) throw;
    tflite_error = e;
  }
  as.message = "ComputeSettings";
  try {
    Settings compute = Settings::load(path, as);
    if (detail::unknown_fields(detail::message_of(compute)).empty()) return compute;
  } catch (const Error&) {
    // Report what reading it as TFLiteSettings (the usual root) found.
  }
  if (tflite) return std::move(*tflite);
  // Neither root reads it (a MinibenchmarkSettings, say): say what a run takes, then what
  // reading it as TFLiteSettings found.
  throw Error(tflite_error->id(),
              "settings for a run are a TFLiteSettings or a ComputeSettings (read as TFLiteSettings: " +
                  tflite_error->message() + ")",
              tflite_error->file().empty() ? path.string() : tflite_error->file(), tflite_error->where());
}

Settings tflite_settings_of(const Settings& settings) {
  const pb::Message& m = detail::message_of(settings);
  if (is_root(settings, "TFLiteSettings")) return settings;
  if (!is_root(settings, "ComputeSettings"))
    throw Error(ErrorId::UnsupportedOther, "a " + settings.message_name() + " holds no TFLiteSettings");
  auto out = std::make_unique<tp::TFLiteSettings>();
  out->CopyFrom(static_cast<const tp::ComputeSettings&>(m).tflite_settings());
  return detail::make_settings(std::move(out));
}

ExecutionChoice execution_choice(const Settings& settings, const std::string& file) {
  const Settings ts = tflite_settings_of(settings);
  const auto& t = static_cast<const tp::TFLiteSettings&>(detail::message_of(ts));
  // Field paths from the document's root.
  const std::string prefix = is_root(settings, "ComputeSettings") ? "tflite_settings." : "";
  const pb::Message& root = detail::message_of(settings);

  if (auto v = unknown_enum_at(root, prefix + "delegate"))
    throw Error(ErrorId::Feature, "delegate " + std::to_string(*v) + " is not a Delegate of configuration.proto: not available" + kAvailable,
                file, prefix + "delegate");
  ExecutionChoice c;
  c.delegate = enum_name(tp::Delegate_descriptor(), t.delegate());
  switch (t.delegate()) {
    case tp::NONE:
    case tp::XNNPACK: c.backend = "cpu"; break;
    case tp::GPU: {
      const std::string at = prefix + "gpu_settings.force_backend";
      if (auto v = unknown_enum_at(root, at))
        throw Error(ErrorId::Feature, "GPU delegate backend " + std::to_string(*v) + " is not a GPUBackend: not available" + kAvailable,
                    file, at);
      const tp::GPUBackend b = t.gpu_settings().force_backend();
      if (b != tp::UNSET && b != tp::OPENCL)
        throw Error(ErrorId::Feature, "delegate GPU with force_backend " + enum_name(tp::GPUBackend_descriptor(), b) +
                                                " is not available" + kAvailable, file, at);
      c.backend = "opencl";
      break;
    }
    default:
      throw Error(ErrorId::Feature, "delegate " + c.delegate + " is not available" + kAvailable, file, prefix + "delegate");
  }

  if (t.delegate() == tp::XNNPACK && t.has_xnnpack_settings() && t.xnnpack_settings().has_num_threads()) {
    const int n = t.xnnpack_settings().num_threads();
    c.threads = n > 0 ? n : 1;
  } else if (t.has_cpu_settings() && t.cpu_settings().has_num_threads()) {
    const int n = t.cpu_settings().num_threads();
    if (n != -1 && n <= 0)
      throw Error(ErrorId::AttributeValue, std::to_string(n) + ": must be -1 (the runtime chooses) or > 0 (configuration.proto CPUSettings)",
                  file, prefix + "cpu_settings.num_threads");
    c.threads = n == -1 ? 0 : n;
  }
  if (t.has_fallback_settings() && t.fallback_settings().has_allow_automatic_fallback_on_compilation_error())
    c.opencl_fallback = t.fallback_settings().allow_automatic_fallback_on_compilation_error() ? "cpu" : "none";
  return c;
}

std::string requested_delegate(const Settings& settings) {
  const pb::Message& root = detail::message_of(settings);
  const std::string prefix = is_root(settings, "ComputeSettings") ? "tflite_settings." : "";
  if (auto v = unknown_enum_at(root, prefix + "delegate")) return std::to_string(*v);
  const Settings ts = tflite_settings_of(settings);
  return enum_name(tp::Delegate_descriptor(), static_cast<const tp::TFLiteSettings&>(detail::message_of(ts)).delegate());
}

std::string delegate_of_backend(std::string_view backend) { return backend == "opencl" ? "GPU" : "NONE"; }

Settings benchmark_event(const BenchmarkRun& run, const Settings* tflite_settings) {
  auto e = std::make_unique<tp::BenchmarkEvent>();
  if (tflite_settings) {
    const Settings ts = tflite_settings_of(*tflite_settings);
    e->mutable_tflite_settings()->CopyFrom(detail::message_of(ts));
  }
  if (!run.failed) {
    e->set_event_type(tp::END);
    tp::BenchmarkResult& r = *e->mutable_result();
    for (int64_t t : run.initialization_time_us) r.add_initialization_time_us(t);
    for (int64_t t : run.inference_time_us) r.add_inference_time_us(t);
    if (run.max_memory_kb) r.set_max_memory_kb(*run.max_memory_kb);
    r.set_ok(run.ok);
    for (const auto& [name, values] : run.metrics) {
      tp::BenchmarkMetric& m = *r.add_metrics();
      m.set_name(name);
      for (float v : values) m.add_values(v);
    }
  } else {
    e->set_event_type(tp::ERROR);
    tp::BenchmarkError& err = *e->mutable_error();
    err.set_stage(static_cast<tp::BenchmarkStage>(run.stage));
    err.set_exit_code(run.exit_code);
    tp::ErrorCode& code = *err.add_error_code();
    tp::Delegate source{};
    if (tp::Delegate_Parse(run.error_source, &source)) code.set_source(source);
    code.set_tflite_error(run.tflite_error);
    code.set_underlying_api_error(run.underlying_api_error);
  }
  if (run.boottime_us) e->set_boottime_us(*run.boottime_us);
  if (run.wallclock_us) e->set_wallclock_us(*run.wallclock_us);
  return detail::make_settings(std::move(e));
}

}  // namespace nnbridge::config::tflite_accel
