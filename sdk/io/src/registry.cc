// The format registry. Built-in formats are added by an explicit call on first use, not by
// static initializers, so that linking nnbridge_io statically can never drop a format.
#include <algorithm>
#include <memory>
#include <mutex>
#include <utility>

#include "json_format.h"
#include "nnbridge/formats/afcm.h"
#include "nnbridge/formats/armnn.h"
#include "nnbridge/formats/onnx.h"
#include "nnbridge/formats/pte.h"
#include "nnbridge/formats/vkgraph.h"
#include "nnbridge/io.h"

namespace nnbridge {
namespace {

struct Registry {
  std::mutex mutex;
  // unique_ptr keeps each handler's address stable while the vector grows; a replaced
  // handler is kept alive (moved to `retired`) because callers may still hold its pointer.
  std::vector<std::unique_ptr<FormatHandler>> handlers;
  std::vector<std::unique_ptr<FormatHandler>> retired;

  void add_locked(FormatHandler handler) {
    auto fresh = std::make_unique<FormatHandler>(std::move(handler));
    // check() learns the rules of the format's native ops (core cannot know them).
    if (fresh->check && !fresh->native_ops.empty())
      register_native_check(fresh->native_ops, fresh->check, fresh->name);
    for (auto& slot : handlers) {
      if (slot->name == fresh->name) {
        retired.push_back(std::move(slot));
        slot = std::move(fresh);
        return;
      }
    }
    handlers.push_back(std::move(fresh));
  }
};

Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry;  // never destroyed: handlers may be used during static destruction
    reg->add_locked(formats::armnn::format_handler());
    reg->add_locked(io_detail::json_format_handler());
    reg->add_locked(formats::armnn::json_format_handler());  // after json: its sniffer claims IR JSON first
    reg->add_locked(formats::afcm::format_handler());
    reg->add_locked(formats::vkgraph::format_handler());
    reg->add_locked(formats::vkgraph::delegate_handler());
    reg->add_locked(formats::pte::format_handler());
    reg->add_locked(formats::pte::ptd_handler());
    reg->add_locked(formats::onnx::format_handler());  // last: protobuf has no magic, the others do
    return reg;
  }();
  return *r;
}

}  // namespace

void register_format(FormatHandler handler) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.add_locked(std::move(handler));
}

const FormatHandler* find_format(std::string_view name) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (const auto& h : r.handlers)
    if (h->name == name) return h.get();
  return nullptr;
}

std::vector<const FormatHandler*> all_formats() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<const FormatHandler*> out;
  out.reserve(r.handlers.size());
  for (const auto& h : r.handlers) out.push_back(h.get());
  return out;
}

}  // namespace nnbridge
