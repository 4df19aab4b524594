// run_cases(): each case in a child process (posix_spawn), `jobs` at a time, with a timeout;
// the child prints its result as one marked JSON line (child_main()).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "internal.h"
#include "nnbridge/conformance.h"
#include "nnbridge/error.h"
#include "nnbridge/json_syntax.h"

extern char** environ;

namespace nnbridge::conformance {

nlohmann::json result_to_json(const CaseResult& r) {
  nlohmann::json backends = nlohmann::json::object();
  for (const auto& [b, br] : r.backends) backends[b] = {{"status", to_string(br.status)}, {"reason", br.reason}};
  return {{"name", r.name},   {"status", to_string(r.status)}, {"reason", r.reason},  {"checks", r.checks},
          {"notes", r.notes}, {"seconds", r.seconds},          {"backends", backends}};
}

CaseResult result_from_json(const nlohmann::json& j) {
  CaseResult r;
  r.name = j.at("name").get<std::string>();
  r.status = status_from_string(j.at("status").get<std::string>());
  r.reason = j.at("reason").get<std::string>();
  r.checks = j.at("checks").get<std::vector<std::string>>();
  r.notes = j.at("notes").get<std::vector<std::string>>();
  r.seconds = j.at("seconds").get<double>();
  for (const auto& [b, br] : j.at("backends").items())
    r.backends[b] = {status_from_string(br.at("status").get<std::string>()), br.at("reason").get<std::string>()};
  return r;
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::string_view kMarker = "@@nnbridge-conformance-result@@ ";
constexpr std::size_t kMaxOutput = 64 * 1024;  // a chatty child's output is cut to its tail

/// The last lines of a child's output, on one line, for a failure reason.
std::string tail(const std::string& out) {
  std::string t = out.size() > 400 ? out.substr(out.size() - 400) : out;
  std::replace(t.begin(), t.end(), '\n', ' ');
  while (!t.empty() && t.back() == ' ') t.pop_back();
  return t;
}

struct Child {
  pid_t pid = -1;
  int fd = -1;
  std::size_t index = 0;
  std::string output;
  Clock::time_point start, deadline;
  std::chrono::milliseconds timeout{0};
  bool timed_out = false;
};

Child spawn(const std::vector<std::string>& argv_text, std::size_t index, std::chrono::milliseconds timeout) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) throw Error(ErrorId::IoOther, std::string("pipe: ") + strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, p[1], 1);
  posix_spawn_file_actions_adddup2(&fa, p[1], 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  std::vector<std::string> args = argv_text;
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  Child c;
  const int rc = posix_spawn(&c.pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(p[1]);
  if (rc != 0) {
    close(p[0]);
    throw Error(ErrorId::IoOther, std::string("cannot start the case process: ") + strerror(rc), argv_text[0]);
  }
  c.fd = p[0];
  c.index = index;
  c.start = Clock::now();
  c.timeout = timeout;
  c.deadline = c.start + timeout;
  return c;
}

CaseResult finish(Child& c, int status, const std::string& name) {
  CaseResult r;
  r.name = name;
  r.seconds = std::chrono::duration<double>(Clock::now() - c.start).count();
  if (c.timed_out) {
    std::ostringstream s;
    s << "timed out after " << c.timeout.count() / 1000.0 << " s (killed)";
    r.reason = s.str();
    return r;
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* abbrev = sigabbrev_np(sig);
    r.reason = "crashed: signal " + std::to_string(sig) + (abbrev ? std::string(" (SIG") + abbrev + ")" : "");
    if (!c.output.empty()) r.reason += "; output: " + tail(c.output);
    return r;
  }
  const auto at = c.output.rfind(kMarker);
  if (at != std::string::npos) {
    const auto end = c.output.find('\n', at);
    try {
      r = result_from_json(nlohmann::json::parse(c.output.substr(at + kMarker.size(), end - at - kMarker.size())));
      r.name = name;
      return r;
    } catch (const nlohmann::json::exception&) {
    }
  }
  r.reason = "the case process exited with code " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
             " and no result" + (c.output.empty() ? "" : ": " + tail(c.output));
  return r;
}

}  // namespace

std::vector<CaseResult> run_cases(std::span<const FoundCase> cases, const RunOptions& o) {
  if (o.child_command.empty()) throw Error(ErrorId::OptionValue, "run_cases() needs a child command");
  if (o.jobs < 1) throw Error(ErrorId::OptionValue, "run_cases() needs jobs >= 1");
  const std::string options_text = options_to_json(o.case_options);
  std::vector<CaseResult> results(cases.size());
  std::vector<Child> running;
  std::size_t next = 0, done = 0;
  while (done < cases.size()) {
    while (next < cases.size() && running.size() < static_cast<std::size_t>(o.jobs)) {
      std::vector<std::string> argv = o.child_command;
      argv.insert(argv.end(), {options_text, cases[next].dir.string(), cases[next].name});
      if (o.on_start) o.on_start(cases[next], next + 1, cases.size());
      try {
        running.push_back(spawn(argv, next, case_timeout(cases[next].dir, o.timeout)));
      } catch (const Error& e) {
        if (done == 0 && running.empty()) throw;  // nothing can start: not a per-case failure
        results[next].name = cases[next].name;
        results[next].reason = e.what();
        ++done;
        if (o.on_result) o.on_result(results[next], done, cases.size());
      }
      ++next;
    }
    // Wait for output from any child, at most until the nearest deadline (a child whose output
    // closed is polled for its exit every 10 ms).
    auto now = Clock::now();
    auto wait = std::chrono::milliseconds(1000);
    for (const Child& c : running) {
      if (c.fd < 0) wait = std::min(wait, std::chrono::milliseconds(10));
      if (!c.timed_out)
        wait = std::min(wait, std::max(std::chrono::milliseconds(0),
                                       std::chrono::duration_cast<std::chrono::milliseconds>(c.deadline - now)));
    }
    std::vector<pollfd> fds;
    for (const Child& c : running) fds.push_back({c.fd, POLLIN, 0});  // fd -1: ignored by poll
    if (poll(fds.data(), fds.size(), static_cast<int>(wait.count()) + 1) < 0 && errno != EINTR)
      throw Error(ErrorId::IoOther, std::string("poll: ") + strerror(errno));
    now = Clock::now();
    for (std::size_t k = 0; k < running.size(); ++k) {
      Child& c = running[k];
      if (c.fd >= 0 && (fds[k].revents & (POLLIN | POLLHUP | POLLERR))) {
        char buf[8192];
        const ssize_t n = read(c.fd, buf, sizeof buf);
        if (n > 0) {
          c.output.append(buf, static_cast<std::size_t>(n));
          // Keep the tail; the result line is the child's last output.
          if (c.output.size() > 2 * kMaxOutput) c.output.erase(0, c.output.size() - kMaxOutput);
        } else if (n == 0 || errno != EINTR) {
          close(c.fd);
          c.fd = -1;
        }
      }
      if (!c.timed_out && now >= c.deadline) {
        kill(c.pid, SIGKILL);
        c.timed_out = true;
      }
    }
    for (std::size_t k = 0; k < running.size();) {
      Child& c = running[k];
      int status = 0;
      pid_t w = 0;
      if (c.fd < 0)
        while ((w = waitpid(c.pid, &status, WNOHANG)) < 0 && errno == EINTR) {
        }
      if (w != c.pid) {
        ++k;
        continue;
      }
      results[c.index] = apply_known_failure(finish(c, status, cases[c.index].name), o.known_failures);
      ++done;
      if (o.on_result) o.on_result(results[c.index], done, cases.size());
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  return results;
}

int child_main(const std::string& options_json, const std::string& dir, const std::string& name) {
  CaseResult r;
  try {
    r = run_case(dir, name, options_from_json(options_json));
  } catch (const std::exception& e) {
    r.name = name;
    r.reason = std::string("bad case options: ") + e.what();
  }
  std::cout.flush();
  std::cerr.flush();
  std::cout << kMarker << result_to_json(r).dump() << "\n";
  std::cout.flush();
  return 0;
}

std::map<std::string, std::string, std::less<>> read_known_failures(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorId::IoOpen, "cannot open", file.string());
  std::stringstream ss;
  ss << in.rdbuf();
  std::map<std::string, std::string, std::less<>> out;
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(ss.str());
  } catch (const nlohmann::json::exception& e) {
    throw json_syntax_error(e, file.string());
  }
  if (!j.is_object()) throw Error(ErrorId::InvalidOther, "must be an object {\"<case name>\": \"<reason>\"}", file.string());
  for (const auto& [k, v] : j.items()) {
    if (!v.is_string()) throw Error(ErrorId::InvalidOther, "the reason must be a string", file.string(), k);
    out[k] = v.get<std::string>();
  }
  return out;
}

CaseResult apply_known_failure(CaseResult r, const std::map<std::string, std::string, std::less<>>& known) {
  auto it = known.find(r.name);
  if (it == known.end()) return r;
  if (r.status == Status::Fail) {
    r.status = Status::Skip;
    r.reason = "known failure: " + it->second + " (" + r.reason + ")";
  } else if (r.status == Status::Pass) {
    r.status = Status::Fail;
    r.reason = "listed as a known failure but passes: remove it from the list (" + it->second + ")";
  }
  return r;
}

std::string options_to_json(const CaseOptions& o) {
  nlohmann::json j = {{"backends", o.backends},
                      {"backend_options", o.backend_options},
                      {"flatc", o.flatc},
                      {"schemas_dir", o.schemas_dir.string()}};
  return j.dump();
}

CaseOptions options_from_json(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  CaseOptions o;
  o.backends = j.at("backends").get<std::vector<std::string>>();
  for (const auto& [k, v] : j.at("backend_options").items()) o.backend_options[k] = v.get<std::string>();
  o.flatc = j.at("flatc").get<std::string>();
  o.schemas_dir = j.at("schemas_dir").get<std::string>();
  return o;
}

std::string report_json(std::span<const CaseResult> results) {
  nlohmann::json cases = nlohmann::json::array();
  int passed = 0, failed = 0, skipped = 0;
  for (const CaseResult& r : results) {
    cases.push_back(result_to_json(r));
    (r.status == Status::Pass ? passed : r.status == Status::Skip ? skipped : failed)++;
  }
  nlohmann::json j = {{"cases", cases}, {"passed", passed}, {"failed", failed}, {"skipped", skipped}};
  return j.dump(2);
}

std::string summary_line(std::span<const CaseResult> results) {
  int passed = 0, failed = 0, skipped = 0;
  for (const CaseResult& r : results) (r.status == Status::Pass ? passed : r.status == Status::Skip ? skipped : failed)++;
  std::string s = std::to_string(passed) + " passed, " + std::to_string(failed) + " failed";
  if (skipped) s += ", " + std::to_string(skipped) + " skipped";
  return s;
}

}  // namespace nnbridge::conformance
