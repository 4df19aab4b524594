// `nnbridge config convert|check|dump`: TFLite acceleration settings (configuration.proto) in
// any of five forms (nnbridge/config/tflite_accel.h).
//
// Exit codes as for every subcommand (commands.h): `check` exits 1 when it finds an error
// (warnings alone exit 0); unreadable or unconvertible input, or an output the target form
// cannot express, exits 3 naming the file and the field.
#include <iostream>
#include <memory>

#include "commands.h"
#include "nnbridge/config/tflite_accel.h"

namespace nnbridge::cli {
namespace {

namespace ta = nnbridge::config::tflite_accel;

struct ConfigArgs {
  std::string in, out, from, to, message = "TFLiteSettings";
  std::vector<std::string> reader_options;  // settings.max_size, settings.max_depth, settings.max_tables
};

std::string check_form(const std::string& name) {
  return ta::form_from_name(name) ? "" : "'" + name + "' is not a form (proto-binary, proto-text, proto-json, fb, fb-json)";
}

std::string check_message(const std::string& name) {
  return ta::resolve_message_name(name) ? "" : "configuration.proto has no message '" + name + "'";
}

std::string line(const std::string& file, const Issue& issue) {
  return file + ": " + (issue.severity == Issue::Severity::Error ? "error" : "warning") + ": " +
         (issue.where.empty() ? "" : issue.where + ": ") + issue.message;
}

ta::Settings load(const ConfigArgs& a) {
  ta::LoadOptions options;
  if (!a.from.empty()) options.form = ta::form_from_name(a.from);
  options.message = a.message;
  options.limits = ta::reader_limits(key_values(a.reader_options));
  return ta::Settings::load(a.in, options);
}

void print_warnings(const ConfigArgs& a, const ta::Settings& s) {
  for (const Issue& w : s.warnings()) std::cerr << line(a.in, w) << "\n";
}

int run_convert(const ConfigArgs& a) {
  const ta::Settings s = load(a);
  print_warnings(a, s);
  ta::SaveOptions options;
  if (!a.to.empty()) options.form = ta::form_from_name(a.to);
  s.save(a.out, options);
  // One line on success, as graph `convert` prints.
  const auto in_form = a.from.empty() ? ta::form_from_path(a.in) : ta::form_from_name(a.from);
  const auto out_form = options.form ? options.form : ta::form_from_path(a.out);
  std::cout << a.in << " (" << (in_form ? ta::to_string(*in_form) : "?") << ") -> " << a.out << " ("
            << (out_form ? ta::to_string(*out_form) : "?") << ", " << s.message_name() << ")\n";
  return kOk;
}

int run_check(const ConfigArgs& a) {
  const ta::Settings s = load(a);
  std::size_t errors = 0, warnings = 0;
  std::vector<Issue> all = s.warnings();
  for (Issue& i : s.check()) all.push_back(std::move(i));
  for (const Issue& issue : all) {
    (issue.severity == Issue::Severity::Error ? errors : warnings)++;
    std::cout << line(a.in, issue) << "\n";
  }
  std::cout << a.in << ": " << errors << " error(s), " << warnings << " warning(s)\n";
  return errors ? kCheckFailed : kOk;
}

int run_dump(const ConfigArgs& a) {
  const ta::Settings s = load(a);
  print_warnings(a, s);
  std::cout << s.debug_text();
  return kOk;
}

void add_input(CLI::App* sub, ConfigArgs& args) {
  sub->add_option("--from", args.from, "Read IN in this form instead of telling it from the extension")
      ->check(check_form);
  sub->add_option("--message", args.message, "The root message (default TFLiteSettings), e.g. ComputeSettings")
      ->check(check_message);
  sub->add_option("-I,--reader-option", args.reader_options,
                  "A resource limit key=value: settings.max_size (bytes), settings.max_depth (nesting), "
                  "settings.max_tables (FlatBuffer tables)")
      ->check(check_key_value);
}

}  // namespace

void add_config(CLI::App& app, Action& action) {
  auto* config = app.add_subcommand(
      "config", "TFLite acceleration settings (configuration.proto) as proto-binary, proto-text, proto-json, fb, fb-json");
  config->require_subcommand(1);
  config->footer(
      "Forms by extension: .pb .binpb proto-binary; .txtpb .textproto .pbtxt .prototxt proto-text; "
      ".pb.json .proto.json proto-json; .fb fb; .json .fb.json fb-json (TFLite's settings files).");

  auto convert = std::make_shared<ConfigArgs>();
  auto* c = config->add_subcommand("convert", "Convert settings between forms without losing fields or presence");
  c->add_option("IN", convert->in, "The settings file")->required();
  c->add_option("OUT", convert->out, "The file to write (atomically)")->required();
  add_input(c, *convert);
  c->add_option("--to", convert->to, "Write OUT in this form instead of telling it from the extension")
      ->check(check_form);
  c->callback([&action, convert] { action = [convert] { return run_convert(*convert); }; });

  auto check = std::make_shared<ConfigArgs>();
  auto* k = config->add_subcommand("check", "Check settings against TFLite's rules; exit 1 when the checker finds an error, 3 when FILE does not parse");
  k->add_option("FILE", check->in, "The settings file")->required();
  add_input(k, *check);
  k->callback([&action, check] { action = [check] { return run_check(*check); }; });

  auto dump = std::make_shared<ConfigArgs>();
  auto* d = config->add_subcommand("dump", "Print settings as protobuf text on standard output");
  d->add_option("FILE", dump->in, "The settings file")->required();
  add_input(d, *dump);
  d->callback([&action, dump] { action = [dump] { return run_dump(*dump); }; });
}

}  // namespace nnbridge::cli
