// The "pte" format handler.
#include <cctype>
#include <cstring>
#include <filesystem>
#include <set>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/pte.h"

namespace nnbridge::formats::pte {

Graph read_pte(const Source& src, const LoadOptions& o);

namespace {

// The .pte, and beside it <stem>.ptd with the named data the Program does not hold. An existing
// .ptd is replaced only when it holds the same keys (this model's own, edited), already holds
// these bytes (then it is left as it is), or the writer option pte.overwrite_ptd=true says so.
void write_files(const Graph& g, const std::filesystem::path& path, const SaveOptions& o) {
  PteFiles f = write_pte(g, o);
  if (f.ptd.empty()) {
    write_file_atomic(path, std::as_bytes(std::span<const uint8_t>(f.pte)));
    return;
  }
  std::vector<PtdEntry> entries;
  for (const auto& [key, buf] : f.ptd) entries.push_back({key, buf.bytes(), std::nullopt, {}});
  const std::vector<uint8_t> ptd = write_ptd(entries);
  std::filesystem::path side = path;
  side.replace_extension(".ptd");
  std::error_code ec;
  std::vector<FileContents> files;
  bool write_side = true;
  if (std::filesystem::exists(side, ec)) {
    auto old = MappedFile::open(side);
    const bool same = old->bytes().size() == ptd.size() && std::memcmp(old->bytes().data(), ptd.data(), ptd.size()) == 0;
    auto opt = o.options.find("pte.overwrite_ptd");
    bool allowed = opt != o.options.end() && opt->second == "true";
    // The same keys: this model's own .ptd, with edited data.
    if (!same && !allowed) {
      try {
        NamedData old_nd = read_ptd(Source{old->bytes(), old, side.string(), side}, LoadOptions{}, "ptd");
        std::set<std::string> a, b;
        for (const auto& e : old_nd.entries) a.insert(e.key);
        for (const auto& [key, buf] : f.ptd) b.insert(key);
        allowed = a == b;
      } catch (const Error&) {
        // not a .ptd: never replaced without the option
      }
    }
    if (same) write_side = false;
    else if (!allowed)
      throw Error(ErrorId::IoWrite, "would replace " + side.string() + ", which holds other named data (other keys); remove it, "
                                 "write elsewhere, or allow it (writer option pte.overwrite_ptd=true, `nnbridge convert --force`)",
                  path.string(), "ptd");
  }
  if (write_side) files.push_back({side, std::as_bytes(std::span<const uint8_t>(ptd))});
  files.push_back({path, std::as_bytes(std::span<const uint8_t>(f.pte))});
  write_files_atomic(files);
}

}  // namespace

FormatHandler format_handler() {
  FormatHandler h;
  h.name = "pte";
  h.description = "ExecuTorch program (.pte, ET12) whose method is one Vulkan delegate; named data in it or in a .ptd";
  h.extensions = {"pte"};
  h.reader_options = verifier_limit_options("pte");
  h.reader_options.push_back("pte.method");
  h.reader_options.push_back("pte.named_data");
  h.sniff = [](std::span<const std::byte> b) { return identifier_like(b, "ET"); };
  h.read = read_pte;
  h.writer_options = {"pte.overwrite_ptd"};
  h.option_docs = verifier_limit_option_docs("pte");
  for (auto& [name, doc] : h.option_docs) doc.meaning += ": the Program and the delegate payload each";
  h.option_docs["pte.method"] = {"the method to read", "forward, else the only method"};
  h.option_docs["pte.named_data"] = {"the .ptd holding named data the program does not (relative: to the current folder, "
                                     "else to the .pte's)",
                                     "<stem>.ptd beside the .pte, when there is one"};
  h.option_docs["pte.overwrite_ptd"] = {"true: replace a <stem>.ptd beside the output that holds other keys "
                                        "(nnbridge convert --force)",
                                        "false"};
  h.native_op = [](const Node& n) -> std::string {
    // Delegate nodes carry their VkGraph operator name; a portable method's nodes are et.<kernel>.
    if (auto it = n.attrs.find("vk.name"); it != n.attrs.end() && it->second.is<std::string>())
      return it->second.get<std::string>();
    if (n.op == "et.delegate") return "DelegateCall";
    if (n.op.rfind("et.", 0) == 0) return n.op.substr(3);
    return {};
  };
  h.write = write_files;
  return h;
}

}  // namespace nnbridge::formats::pte
