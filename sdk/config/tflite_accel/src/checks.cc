// The settings checker: rules that TFLite applies (or documents) to these messages, run on
// every instance of a message wherever it sits in the tree (a TFLiteSettings inside
// ComputeSettings, MinibenchmarkSettings.settings_to_test[i], a BenchmarkEvent ...).
#include <functional>
#include <map>

#include "internal.h"
#include "tflite_accel/configuration.pb.h"

namespace nnbridge::config::tflite_accel::detail {
namespace {

namespace tp = ::tflite::proto;

// Reading the deprecated NNAPISettings fields is the point of the rules that flag them.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

struct Findings {
  std::vector<Issue> out;
  void error(const std::string& where, std::string message) {
    out.push_back({Issue::Severity::Error, where, std::move(message)});
  }
  void warn(const std::string& where, std::string message) {
    out.push_back({Issue::Severity::Warning, where, std::move(message)});
  }
};

std::string priority_name(int v) { return tp::GPUInferencePriority_Name(static_cast<tp::GPUInferencePriority>(v)); }

// TFLite delegates/gpu/api.cc IsValid(InferenceOptions), and acceleration/configuration/
// gpu_plugin.cc, which reads the three priorities only when inference_priority1 is not AUTO.
void gpu(const tp::GPUSettings& s, const std::string& p, Findings& f) {
  constexpr int kAuto = tp::GPU_PRIORITY_AUTO;
  const int p1 = s.inference_priority1(), p2 = s.inference_priority2(), p3 = s.inference_priority3();
  const std::string at2 = join(p, "inference_priority2"), at3 = join(p, "inference_priority3");
  const std::string rule = " (configuration.proto GPUSettings: AUTO only after every more important priority is set; "
                           "TFLite delegates/gpu/api.cc IsValid)";
  if (p1 == kAuto) {
    if (p2 != kAuto) f.error(at2, priority_name(p2) + " after an AUTO inference_priority1" + rule);
    if (p3 != kAuto) f.error(at3, priority_name(p3) + " after an AUTO inference_priority1" + rule);
  } else {
    if (p2 == kAuto && p3 != kAuto) f.error(at3, priority_name(p3) + " after an AUTO inference_priority2" + rule);
    const std::string twice = " is given twice (TFLite delegates/gpu/api.cc IsValid rejects repeated priorities)";
    if (p2 != kAuto && p2 == p1) f.error(at2, priority_name(p2) + twice);
    if (p3 != kAuto && (p3 == p1 || p3 == p2)) f.error(at3, priority_name(p3) + twice);
    if (s.has_is_precision_loss_allowed())
      f.warn(join(p, "is_precision_loss_allowed"),
             "ignored while inference_priority1 is set (TFLite acceleration/configuration/gpu_plugin.cc)");
  }
  if (s.cache_directory().empty() != s.model_token().empty())
    f.warn(join(p, s.cache_directory().empty() ? "model_token" : "cache_directory"),
           "without " + std::string(s.cache_directory().empty() ? "cache_directory" : "model_token") +
               ": the GPU delegate serializes only when both are set (configuration.proto GPUSettings)");
}

void cpu(const tp::CPUSettings& s, const std::string& p, Findings& f) {
  if (s.has_num_threads() && s.num_threads() != -1 && s.num_threads() <= 0)
    f.error(join(p, "num_threads"), std::to_string(s.num_threads()) +
                                        ": must be -1 (the runtime chooses) or > 0 (configuration.proto CPUSettings)");
}

void nnapi(const tp::NNAPISettings& s, const std::string& p, Findings& f) {
  if (s.has_cache_directory())
    f.warn(join(p, "cache_directory"),
           "deprecated: use TFLiteSettings.compilation_caching_settings.cache_dir (configuration.proto)");
  if (s.has_model_token())
    f.warn(join(p, "model_token"),
           "deprecated: use TFLiteSettings.compilation_caching_settings.model_token (configuration.proto)");
  if (s.has_support_library_handle())
    f.warn(join(p, "support_library_handle"),
           "a pointer into the process that wrote it (configuration.proto NNAPISettings); meaningless in a file");
}

// Which TFLiteSettings fields belong to which delegate.
const std::map<std::string, tp::Delegate>& delegate_fields() {
  static const std::map<std::string, tp::Delegate> m{
      {"nnapi_settings", tp::NNAPI},          {"gpu_settings", tp::GPU},
      {"hexagon_settings", tp::HEXAGON},      {"xnnpack_settings", tp::XNNPACK},
      {"coreml_settings", tp::CORE_ML},       {"edgetpu_settings", tp::EDGETPU},
      {"google_edgetpu_settings", tp::EDGETPU}, {"coral_settings", tp::EDGETPU_CORAL},
      {"armnn_settings", tp::ARMNN},          {"mtk_neuron_settings", tp::MTK_NEURON},
  };
  return m;
}

void tflite(const tp::TFLiteSettings& s, const std::string& p, Findings& f) {
  if (s.has_stable_delegate_loader_settings() && s.stable_delegate_loader_settings().delegate_path().empty())
    f.error(join(p, "stable_delegate_loader_settings.delegate_path"),
            "missing or empty: the stable delegate loader has no library to load "
            "(TFLite tools/delegates/experimental/stable_delegate/stable_delegate_provider.cc)");
  // A stable delegate may read any of them, whatever `delegate` says; XNNPack settings may also
  // configure the default delegate when no delegate is chosen.
  if (!s.has_stable_delegate_loader_settings()) {
    const pb::Reflection& r = *s.GetReflection();
    for (const auto& [name, owner] : delegate_fields()) {
      const pb::FieldDescriptor* field = s.GetDescriptor()->FindFieldByName(name);
      if (!r.HasField(s, field) || s.delegate() == owner) continue;
      if (owner == tp::XNNPACK && s.delegate() == tp::NONE) continue;
      f.warn(join(p, name), "unused: delegate is " + tp::Delegate_Name(s.delegate()) + ", these settings are the " +
                                tp::Delegate_Name(owner) + " delegate's");
    }
  }
  if (s.has_nnapi_settings() && s.nnapi_settings().has_fallback_settings()) {
    const tp::FallbackSettings& old = s.nnapi_settings().fallback_settings();
    const tp::FallbackSettings& now = s.fallback_settings();
    const std::string at = join(p, "nnapi_settings.fallback_settings");
    if (s.has_fallback_settings() &&
        (old.allow_automatic_fallback_on_compilation_error() != now.allow_automatic_fallback_on_compilation_error() ||
         old.allow_automatic_fallback_on_execution_error() != now.allow_automatic_fallback_on_execution_error()))
      f.error(at, "contradicts fallback_settings; this deprecated copy is superseded by TFLiteSettings.fallback_settings "
                  "(configuration.proto NNAPISettings)");
    else
      f.warn(at, "deprecated: use TFLiteSettings.fallback_settings (configuration.proto NNAPISettings)");
  }
}

void coral(const tp::CoralSettings& s, const std::string& p, Findings& f) {
  if (!s.has_performance())
    f.warn(join(p, "performance"),
           "unset: protobuf readers take MAXIMUM (the .proto default), FlatBuffer readers 0, UNDEFINED "
           "(flatc --proto drops enum defaults); set it to make every form mean the same");
}

void google_edgetpu(const tp::GoogleEdgeTpuSettings& s, const std::string& p, Findings& f) {
  const int v = s.log_verbosity();
  if (v != -1 && (v < 0 || v > 10))
    f.error(join(p, "log_verbosity"),
            std::to_string(v) + ": must be -1 (the delegate chooses) or 0 to 10 (configuration.proto GoogleEdgeTpuSettings)");
}

void edgetpu(const tp::EdgeTpuSettings& s, const std::string& p, Findings& f) {
  if (s.public_model_id().size() > 30)
    f.warn(join(p, "public_model_id"), std::to_string(s.public_model_id().size()) +
                                           " characters: the Edge TPU software may cut it after 30 "
                                           "(configuration.proto EdgeTpuSettings)");
}

void caching(const tp::CompilationCachingSettings& s, const std::string& p, Findings& f) {
  if (s.cache_dir().empty() && !s.model_token().empty())
    f.warn(join(p, "cache_dir"), "unset: without it delegates cache nothing, model_token has no effect "
                                 "(configuration.proto CompilationCachingSettings)");
}

// configuration.proto ModelFile: a filename; or fd and length (offset optional); or
// buffer_handle and length.
void model_file(const tp::ModelFile& s, const std::string& p, Findings& f) {
  const bool file = !s.filename().empty(), fd = s.has_fd(), handle = s.has_buffer_handle();
  if (!file && !fd && !handle)
    f.error(p.empty() ? "(root)" : p, "names no model: set filename, or fd and length, or buffer_handle and length "
                                      "(configuration.proto ModelFile)");
  else if (!file && s.length() <= 0)
    f.error(join(p, "length"), std::string(s.has_length() ? "not positive" : "missing") + ": " +
                                   (fd ? "fd" : "buffer_handle") + " needs the model's length (configuration.proto ModelFile)");
  if (handle)
    f.warn(join(p, "buffer_handle"),
           "a pointer into the process that wrote it (configuration.proto ModelFile); meaningless in a file");
}

// Out-of-enum values kept as unknown fields. Those a form cannot hold are already warnings of
// reading; what is wrong for TFLite as well is an error here.
void unknown_values(const pb::Message& root, Findings& f) {
  for (const UnknownAt& u : unknown_fields(root)) {
    if (!u.field || !u.is_varint || u.field->type() != pb::FieldDescriptor::TYPE_ENUM) continue;
    const pb::EnumDescriptor& e = *u.field->enum_type();
    const auto v = static_cast<int32_t>(static_cast<int64_t>(u.varint));
    if (e.full_name() == "tflite.proto.XNNPackFlags") {
      // A bit mask for the delegate (xnnpack_delegate.h TFLITE_XNNPACK_DELEGATE_FLAG_*).
      int32_t known = 0;
      for (int i = 0; i < e.value_count(); ++i) known |= e.value(i)->number();
      if (v > 0 && (v & ~known) == 0) continue;
      f.error(u.path, std::to_string(v) + " holds bits that are no TFLITE_XNNPACK_DELEGATE_FLAG (xnnpack_delegate.h)");
      continue;
    }
    f.error(u.path, std::to_string(v) + " is not a value of " + e.full_name() + " (configuration.proto)");
  }
}

using Rule = std::function<void(const pb::Message&, const std::string&, Findings&)>;

template <class T>
std::pair<std::string, Rule> rule(void (*fn)(const T&, const std::string&, Findings&)) {
  return {T::descriptor()->full_name(), [fn](const pb::Message& m, const std::string& p, Findings& f) {
            if (const T* t = pb::DynamicCastToGenerated<T>(&m)) fn(*t, p, f);
          }};
}

const std::map<std::string, Rule>& rules() {
  static const std::map<std::string, Rule> r{
      rule(gpu),     rule(cpu),     rule(nnapi),      rule(tflite),     rule(coral),
      rule(edgetpu), rule(caching), rule(model_file), rule(google_edgetpu),
  };
  return r;
}

void walk(const pb::Message& m, const std::string& path, Findings& f) {
  if (auto it = rules().find(m.GetDescriptor()->full_name()); it != rules().end()) it->second(m, path, f);
  const pb::Reflection& r = *m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r.ListFields(m, &fields);
  for (const pb::FieldDescriptor* field : fields) {
    if (field->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const std::string p = join(path, field->name());
    if (field->is_repeated()) {
      for (int j = 0; j < r.FieldSize(m, field); ++j) walk(r.GetRepeatedMessage(m, field, j), index(p, j), f);
    } else {
      walk(r.GetMessage(m, field), p, f);
    }
  }
}

}  // namespace

std::vector<Issue> run_checks(const pb::Message& root) {
  Findings f;
  walk(root, "", f);
  unknown_values(root, f);
  return std::move(f.out);
}

}  // namespace nnbridge::config::tflite_accel::detail
