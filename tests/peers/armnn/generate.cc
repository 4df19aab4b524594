// `generate OUTDIR`: every case is built with INetwork, serialized by Arm NN's serializer, run on
// CpuRef in a forked child (CpuRef may abort), and loaded back by Arm NN's deserializer in an exec'd
// child (20.08's deserializer aborts on several graphs); each result is recorded in case.json.
#include <armnnSerializer/ISerializer.hpp>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "harness.h"

namespace fs = std::filesystem;

namespace peer {
namespace {

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
  return "unknown wait status";
}

// Runs the in-memory network on CpuRef in a forked child; returns "" on success, else why not.
std::string compute_outputs(const Builder& b, const fs::path& dir) {
  const fs::path tmp = dir / "outputs.tmp", err = dir / "cpuref_error.tmp";
  fs::remove_all(tmp);
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid == 0) {
    try {
      std::vector<std::pair<armnn::LayerBindingId, const NpyArray*>> ins;
      for (size_t i = 0; i < b.inputs().size(); ++i) ins.emplace_back(b.inputs()[i].id, &b.input_data()[i]);
      std::vector<armnn::LayerBindingId> outs;
      for (const auto& o : b.outputs()) outs.push_back(o.id);
      auto results = run_on_cpuref(const_cast<Builder&>(b).net(), ins, outs);
      fs::create_directories(tmp);
      for (size_t i = 0; i < results.size(); ++i) write_npy(tmp / (b.outputs()[i].name + ".npy"), results[i]);
      _exit(0);
    } catch (const std::exception& e) {
      std::ofstream(err) << e.what();
      _exit(1);
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    fs::remove_all(dir / "outputs");
    fs::rename(tmp, dir / "outputs");
    return "";
  }
  fs::remove_all(tmp);
  std::string why = fs::exists(err) ? read_text(err) : describe_status(status);
  fs::remove(err);
  return why.empty() ? describe_status(status) : why;
}

// Runs `self inspect model` in a child; returns "" when it exits 0, else how it failed (the
// exception message, or the signal and the last line the child wrote, e.g. a failed assertion).
std::string deserializer_failure(const std::string& self, const fs::path& model) {
  const fs::path log = model.parent_path() / "inspect.tmp";
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execl(self.c_str(), self.c_str(), "inspect", model.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  std::string text = read_text(log);
  fs::remove(log);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 1) {
    try {
      return "throws: " + nlohmann::json::parse(text).at("error").get<std::string>();
    } catch (const std::exception&) {
    }
  }
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const auto nl = text.rfind('\n');
  const std::string last = nl == std::string::npos ? text : text.substr(nl + 1);
  return describe_status(status) + (last.empty() ? "" : ": " + last);
}

// Runs `self run model inputs outdir` in a child; true when it exits 0.
bool run_deserialized(const std::string& self, const fs::path& dir, const fs::path& outdir) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    const std::string model = (dir / "model.armnn").string(), in = (dir / "inputs").string(), out = outdir.string();
    execl(self.c_str(), self.c_str(), "run", model.c_str(), in.c_str(), out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool same_files(const fs::path& a, const fs::path& b) {
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(a)) {
    ++n;
    const fs::path other = b / e.path().filename();
    if (!fs::exists(other) || read_text(e.path()) != read_text(other)) return false;
  }
  return n == static_cast<size_t>(std::distance(fs::directory_iterator(b), fs::directory_iterator()));
}

}  // namespace

int cmd_generate(const std::string& self, const std::string& outdir, const std::string& only) {
  int failures = 0, written = 0;
  for (const CaseDef& def : all_cases()) {
    if (!only.empty() && def.name != only) continue;
    const fs::path dir = fs::path(outdir) / def.name;
    Builder b(def.name);
    std::string model;
    try {
      def.build(b);
      auto serializer = armnnSerializer::ISerializer::Create();
      serializer->Serialize(b.net());
      std::ostringstream os;
      if (!serializer->SaveSerializedToStream(os)) throw std::runtime_error("SaveSerializedToStream returned false");
      model = os.str();
    } catch (const std::exception& e) {
      std::cerr << def.name << ": not written: " << e.what() << "\n";
      ++failures;
      continue;
    }
    fs::remove_all(dir);
    fs::create_directories(dir / "inputs");
    std::ofstream(dir / "model.armnn", std::ios::binary).write(model.data(), static_cast<std::streamsize>(model.size()));
    for (size_t i = 0; i < b.inputs().size(); ++i)
      write_npy(dir / "inputs" / (b.inputs()[i].name + ".npy"), b.input_data()[i]);
    const std::string cpuref_error = compute_outputs(b, dir);
    const std::string load_failure = deserializer_failure(self, dir / "model.armnn");
    const bool loads = load_failure.empty();
    // Where Arm NN can read its own file back, the deserialized network must compute the same.
    bool from_file = false;
    if (loads && cpuref_error.empty()) {
      const fs::path rt = dir / "outputs.roundtrip";
      const bool agree = run_deserialized(self, dir, rt) && same_files(dir / "outputs", rt);
      if (agree != def.armnn_defect.empty()) {
        std::cerr << def.name << ": the deserialized network " << (agree ? "agrees" : "disagrees")
                  << " with the network that was built, contrary to the case's armnn_defect note\n";
        ++failures;
      }
      if (!agree && def.outputs_from_file) {
        fs::remove_all(dir / "outputs");
        fs::rename(rt, dir / "outputs");
        from_file = true;
      }
      fs::remove_all(rt);
    }

    // One key per line, values compact, tolerance spelled as in ../shared/samples/armnn.
    std::vector<std::pair<std::string, std::string>> kv;
    auto str = [](const std::string& v) { return nlohmann::json(v).dump(); };
    kv.emplace_back("format", str("armnn"));
    kv.emplace_back("model", str("model.armnn"));
    kv.emplace_back("model_written_by", str("Arm NN 20.08 serializer (Debian libarmnn22), INetwork API"));
    if (from_file) {
      kv.emplace_back("outputs_computed_by", str("Arm NN 20.08 CpuRef backend, running the network deserialized from model.armnn"));
    } else if (cpuref_error.empty()) {
      kv.emplace_back("outputs_computed_by", str("Arm NN 20.08 CpuRef backend, running the network that was serialized"));
    } else {
      kv.emplace_back("outputs_computed_by", "null");
      kv.emplace_back("outputs_absent_because", str("Arm NN 20.08 CpuRef cannot run it: " + cpuref_error));
    }
    nlohmann::json ins = nlohmann::json::array(), outs = nlohmann::json::array();
    for (const auto& x : b.inputs()) ins.push_back(x.name);
    for (const auto& x : b.outputs()) outs.push_back(x.name);
    kv.emplace_back("layer_types", nlohmann::json(b.layer_types()).dump());
    kv.emplace_back("inputs", ins.dump());
    kv.emplace_back("outputs", outs.dump());
    kv.emplace_back("armnn_20_08_deserializer_loads_it", loads ? "true" : "false");
    if (!loads) kv.emplace_back("armnn_20_08_deserializer_failure", str(load_failure));
    if (!def.armnn_defect.empty()) kv.emplace_back("armnn_20_08_defect", str(def.armnn_defect));
    kv.emplace_back("tolerance", R"({"float32": {"atol": 1e-5, "rtol": 1e-4}, "quantized": {"max_abs_diff_in_steps": 1}})");
    std::ofstream json(dir / "case.json");
    json << "{\n";
    for (size_t i = 0; i < kv.size(); ++i)
      json << "  " << str(kv[i].first) << ": " << kv[i].second << (i + 1 < kv.size() ? ",\n" : "\n");
    json << "}\n";
    ++written;
    std::cout << def.name << ": " << model.size() << " bytes, outputs " << (cpuref_error.empty() ? "computed" : "absent")
              << ", 20.08 deserializer " << (loads ? "loads it" : "fails") << "\n";
  }
  std::cout << written << " cases written, " << failures << " failed\n";
  return failures == 0 && written > 0 ? 0 : 1;
}

}  // namespace peer
