// Shared between the parser files of config/openvino_custom: the problem list and a thin view
// of a pugixml element with its line.
#pragma once

#include <cctype>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <pugixml.hpp>

#include "nnbridge/config/openvino_custom.h"
#include "nnbridge/error.h"

namespace nnbridge::config::openvino_custom {

namespace detail {

/// Syntax check of a formula; `identifiers` lets MVCL layer parameters stand as variables.
bool check_formula_syntax(std::string_view formula, bool identifiers, std::string* why);

/// Every problem found in one file, each with its line.
class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}
  /// Records a problem; `id` is an Invalid identifier saying what kind of problem it is.
  void add(int line, const std::string& text, ErrorId id) {
    lines_.push_back(file_ + ":" + std::to_string(line) + ": " + text);
    ids_.push_back(id);
  }
  bool empty() const { return lines_.empty(); }
  const std::string& file() const { return file_; }
  /// Throws Error listing every problem, when there is one: its identifier is the problems' own
  /// when they all share one, else ErrorId::InvalidOther.
  void throw_if_any() const;

 private:
  std::string file_;
  std::vector<std::string> lines_;
  std::vector<ErrorId> ids_;
};

/// Byte offsets to 1-based lines of one buffer.
class Lines {
 public:
  explicit Lines(std::string_view text);
  int line_of(std::ptrdiff_t offset) const;

 private:
  std::vector<std::size_t> starts_;
};

/// What a layer parser needs: the file's problems, lines and directory.
struct Context {
  Problems& problems;
  const Lines& lines;
  std::string file;                     ///< as given, for Location
  std::filesystem::path dir;            ///< sources are relative to it
  const LoadCustomLayersOptions& options;

  int line(const pugi::xml_node& n) const { return lines.line_of(n.offset_debug()); }
  Location where(const pugi::xml_node& n) const { return {file, line(n)}; }
  void error(const pugi::xml_node& n, const std::string& text, ErrorId id) const { problems.add(line(n), text, id); }

  /// Reports every attribute of `n` not in `allowed`.
  void only_attributes(const pugi::xml_node& n, std::initializer_list<const char*> allowed) const;
  /// Reports every child element of `n` not in `allowed`, and text content.
  void only_children(const pugi::xml_node& n, std::initializer_list<const char*> allowed) const;
  /// The children of `n` named `name`.
  static std::vector<pugi::xml_node> children(const pugi::xml_node& n, const char* name);
  /// A required attribute: reports and returns nullopt when absent or empty.
  std::optional<std::string> required(const pugi::xml_node& n, const char* attr) const;
  /// A non-negative integer attribute written in decimal digits only.
  std::optional<int> index(const pugi::xml_node& n, const char* attr, bool required_attr = true) const;
};

/// `<Element>` for messages.
inline std::string tag(const pugi::xml_node& n) { return std::string("<") + n.name() + ">"; }

void parse_simple_gpu(const Context& c, const pugi::xml_node& layer, CustomLayerConfig& out);
/// Parses one MVCL CustomLayer element into `entries` (one per Kernel stage); merging into
/// layers happens once the whole file is read (stages of the 2019 layout are separate elements).
struct MvclEntry {
  MvclLayer layer;             ///< one layer holding the kernels this element declares
  std::optional<int> stage;    ///< the CustomLayer's own `stage` (2019 layout)
  int line = 0;
};
void parse_mvcl(const Context& c, const pugi::xml_node& layer, std::vector<MvclEntry>& out);
void merge_mvcl(const Context& c, std::vector<MvclEntry> entries, CustomLayerConfig& out);

}  // namespace detail

}  // namespace nnbridge::config::openvino_custom
