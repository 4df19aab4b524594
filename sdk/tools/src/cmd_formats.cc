// `nnbridge formats`: the table of registered formats.
#include <algorithm>
#include <iostream>

#include "commands.h"
#include "nnbridge/io.h"

namespace nnbridge::cli {

void add_formats(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("formats", "List the file formats nnbridge reads and writes");
  sub->callback([&action] {
    action = [] {
      std::size_t name_w = 4, ext_w = 10;
      std::vector<std::string> exts;
      for (const FormatHandler* h : all_formats()) {
        std::string e;
        for (const auto& x : h->extensions) e += (e.empty() ? "." : " .") + x;
        exts.push_back(e);
        name_w = std::max(name_w, h->name.size());
        ext_w = std::max(ext_w, e.size());
      }
      auto pad = [](std::string s, std::size_t w) { return s + std::string(w - std::min(w, s.size()) + 2, ' '); };
      std::cout << pad("NAME", name_w) << pad("EXTENSIONS", ext_w) << "READ  WRITE  DESCRIPTION\n";
      std::size_t i = 0;
      for (const FormatHandler* h : all_formats()) {
        std::cout << pad(h->name, name_w) << pad(exts[i++], ext_w) << (h->read ? "yes   " : "no    ")
                  << (h->write ? "yes    " : "no     ") << h->description << "\n";
      }
      return kOk;
    };
  });
}

}  // namespace nnbridge::cli
