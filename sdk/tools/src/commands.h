// The `nnbridge` subcommands: each adds itself to the CLI11 app and, once parsing
// succeeded, leaves the work to run in `action`.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "nnbridge/attr.h"
#include "nnbridge/exec.h"
#include "nnbridge/format.h"
#include "nnbridge/graph.h"

namespace nnbridge::cli {

/// Exit codes (issue 2): the same for every subcommand.
enum Exit : int {
  kOk = 0,
  kCheckFailed = 1,  ///< `check` found at least one Error-severity issue
  kUsage = 2,        ///< bad command line
  kBadInput = 3,     ///< unreadable, malformed or unsupported input, or an output that cannot be written
  kInternal = 4,     ///< a bug in nnbridge: an exception nothing expected
};

/// What the chosen subcommand does once the command line parsed; returns the exit code.
using Action = std::function<int()>;

void add_info(CLI::App& app, Action& action);
void add_dump(CLI::App& app, Action& action);
void add_convert(CLI::App& app, Action& action);
void add_check(CLI::App& app, Action& action);
void add_formats(CLI::App& app, Action& action);
void add_run(CLI::App& app, Action& action);
void add_afcm(CLI::App& app, Action& action);  ///< `afcm shaders` (cmd_afcm.cc)
void add_config(CLI::App& app, Action& action);  ///< `config convert|check|dump` (cmd_config.cc)
void add_custom_layers(CLI::App& app, Action& action);  ///< `custom-layers check` (cmd_custom_layers.cc)
void add_conformance(CLI::App& app, Action& action);  ///< `conformance` and its hidden child command
void add_diff(CLI::App& app, Action& action);  ///< `diff` (cmd_diff.cc)
void add_devices(CLI::App& app, Action& action);  ///< `devices` (cmd_devices.cc)
void add_ops(CLI::App& app, Action& action);  ///< `ops` (cmd_ops.cc)

void add_validate(CLI::App& app, Action& action);  ///< `validate` (cmd_validate.cc)

void add_draw(CLI::App& app, Action& action);  ///< `draw` (cmd_draw.cc)
/// `-O key=value` / `-I key=value` arguments as a map; the validator refuses text without '='.
std::map<std::string, std::string, std::less<>> key_values(const std::vector<std::string>& args);
/// CLI11 check for key=value arguments.
std::string check_key_value(const std::string& arg);
/// CLI11 check for a format given by name or by extension ("armnn", "json", ".json").
std::string check_format_name(const std::string& arg);
/// The registered format name for a name or extension accepted by check_format_name.
std::string resolve_format_name(const std::string& arg);

/// Reads `dir`/<name>.npy for every (name, type) in `types` (graph inputs of a prepared plan, or
/// graph outputs for expected values) into tensors of those types (quantized: the file holds the
/// storage integers). File names are npy_file_names(types, what). The folder must hold exactly
/// those files. Throws Error naming the file for a missing folder or file, an extra file (a name
/// spelt any other way among them), two tensors sharing a file, or a file whose shape or dtype
/// differs from the type.
TensorMap read_npy_folder(const std::string& dir, const std::vector<std::pair<std::string, TensorType>>& types,
                          const char* what = "graph input");
/// "<stem>.npy" for each of `types` in order, `what` "graph input" or "graph output":
/// nnbridge/tensor_files.h's spelling ('%' as %25, '/' as %2F, NUL as %00; input_<i> / output_<i>
/// for an empty name, "." or ".."). Throws Error(Invalid) when two would share a file.
std::vector<std::string> npy_file_names(const std::vector<std::pair<std::string, TensorType>>& types, const char* what);

/// "[1, 3, 224, 224]", "?" for unknown dims, "[*]" for unknown rank.
std::string shape_text(const TensorType& t);
/// attr_text shortened for a terminal: a list of more than `max_items` shows its first and last
/// max_items / 2 and its length; any text longer than `max_chars` is cut, saying how long it was.
std::string attr_summary(const Attr& a, std::size_t max_items = 8, std::size_t max_chars = 160);
/// The rule for an output folder the CLI writes into (`run --outputs DIR`, `afcm shaders DIR`),
/// the same as for an output file (`convert IN OUT`, write_file_atomic): the folder named is
/// created when missing, the folders above it never are, so a mistyped path is an error rather
/// than a new tree. Throws Error(Io) naming `dir` ("cannot create the <what> folder: the folder
/// P does not exist (create it first)", or P "is not a folder"). Returns true when it created
/// `dir` (the caller removes it again, empty, when its writes fail: a failed command leaves no output).
bool make_output_folder(const std::filesystem::path& dir, const std::string& what);
/// Removes `dir` when `created` and it is empty; never throws.
void remove_created_folder(const std::filesystem::path& dir, bool created) noexcept;

/// `--named-data PATH` of run / validate as the reader option of MODEL's format (vkgraph,
/// vkdelegate: a folder, one file per key; pte: the .ptd) in `o`. Returns false, having said why
/// on stderr, for another format.
bool named_data_option(const std::string& model, const std::string& path, LoadOptions& o);

}  // namespace nnbridge::cli
