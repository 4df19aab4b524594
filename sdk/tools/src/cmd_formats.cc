// `nnbridge formats [--verbose]`: the table of registered formats; with --verbose, each format's
// reader and writer options with their meanings and defaults (FormatHandler::option_docs).
#include <algorithm>
#include <iostream>
#include <memory>

#include "commands.h"
#include "nnbridge/io.h"

namespace nnbridge::cli {

namespace {

void print_options(const FormatHandler& h, const std::vector<std::string>& names, const char* kind) {
  if (names.empty()) return;
  std::cout << "  " << kind << " options (" << (std::string(kind) == "reader" ? "-I" : "-O") << " key=value):\n";
  for (const std::string& k : names) {
    std::cout << "    " << k;
    if (auto d = h.option_docs.find(k); d != h.option_docs.end()) {
      std::cout << "\n        " << d->second.meaning;
      if (!d->second.default_value.empty()) std::cout << " (default: " << d->second.default_value << ")";
    }
    std::cout << "\n";
  }
}

}  // namespace

void add_formats(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("formats", "List the file formats nnbridge reads and writes");
  auto verbose = std::make_shared<bool>(false);
  sub->add_flag("-v,--verbose", *verbose, "Also list each format's reader and writer options with their meanings and defaults");
  sub->callback([&action, verbose] {
    action = [verbose] {
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
      if (!*verbose) return kOk;
      for (const FormatHandler* h : all_formats()) {
        std::cout << "\n" << h->name << ": " << h->description << "\n";
        if (h->reader_options.empty() && h->writer_options.empty()) std::cout << "  no options\n";
        print_options(*h, h->reader_options, "reader");
        print_options(*h, h->writer_options, "writer");
      }
      return kOk;
    };
  });
}

}  // namespace nnbridge::cli
