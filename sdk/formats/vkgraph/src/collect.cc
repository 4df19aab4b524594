// Reading an OperatorCall's arguments through a mapping row (shared by reader and writer).
#include "ops.h"

namespace nnbridge::formats::vkgraph {

namespace {

// An IntList, or a ValueList whose items are all Int values (view_copy sizes may be either).
std::optional<std::vector<int64_t>> int_list(const RawValue& v, const std::vector<RawValue>& table) {
  if (v.kind == Kind::IntList && v.present) return v.ints;
  if (v.kind != Kind::ValueList || !v.present) return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t id : v.ints) {
    if (id < 0 || static_cast<std::size_t>(id) >= table.size() || table[id].kind != Kind::Int) return std::nullopt;
    out.push_back(table[id].i);
  }
  return out;
}

std::optional<std::vector<int64_t>> tensor_list(const RawValue& v, const std::vector<RawValue>& table) {
  if (v.kind != Kind::ValueList || !v.present) return std::nullopt;
  for (int64_t id : v.ints)
    if (id < 0 || static_cast<std::size_t>(id) >= table.size() || table[id].kind != Kind::Tensor) return std::nullopt;
  return v.ints;
}

void place(std::vector<int64_t>& v, int slot, int64_t id) {
  if (v.size() <= static_cast<std::size_t>(slot)) v.resize(static_cast<std::size_t>(slot) + 1, -1);
  v[static_cast<std::size_t>(slot)] = id;
}

}  // namespace

std::optional<Collected> collect(const OpRow& row, const std::vector<int32_t>& args, const std::vector<RawValue>& table) {
  if (args.size() != row.args.size()) return std::nullopt;
  Collected c;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const int32_t id = args[k];
    if (id < 0 || static_cast<std::size_t>(id) >= table.size()) return std::nullopt;
    const RawValue& v = table[static_cast<std::size_t>(id)];
    const ArgSpec& a = row.args[k];
    const bool null = v.kind == Kind::Null;
    switch (a.kind) {
      case ArgKind::In:
      case ArgKind::Out:
        if (v.kind != Kind::Tensor) return std::nullopt;
        place(a.kind == ArgKind::In ? c.in : c.out, a.slot, id);
        break;
      case ArgKind::OptIn:
        if (v.kind != Kind::Tensor && !null) return std::nullopt;
        place(c.in, a.slot, null ? -1 : id);
        break;
      case ArgKind::InList:
      case ArgKind::OutList: {
        auto items = tensor_list(v, table);
        if (!items) return std::nullopt;
        auto& dst = a.kind == ArgKind::InList ? c.in : c.out;
        if (dst.size() != static_cast<std::size_t>(a.slot)) dst.resize(static_cast<std::size_t>(a.slot), -1);
        dst.insert(dst.end(), items->begin(), items->end());
        break;
      }
      case ArgKind::Int:
      case ArgKind::OptInt:
        if (null && a.kind == ArgKind::OptInt) break;
        if (v.kind != Kind::Int) return std::nullopt;
        c.aten[a.name] = Attr(v.i);
        break;
      case ArgKind::Bool:
        if (v.kind != Kind::Bool) return std::nullopt;
        c.aten[a.name] = Attr(v.b);
        break;
      case ArgKind::Number:
      case ArgKind::OptNumber:
        if (null && a.kind == ArgKind::OptNumber) break;
        if (v.kind == Kind::Int) c.aten[a.name] = Attr(static_cast<double>(v.i));
        else if (v.kind == Kind::Double) c.aten[a.name] = Attr(v.d);
        else return std::nullopt;
        break;
      case ArgKind::Str:
        if (v.kind != Kind::String || !v.present) return std::nullopt;
        c.aten[a.name] = Attr(v.s);
        break;
      case ArgKind::Ints:
      case ArgKind::OptInts: {
        if (null && a.kind == ArgKind::OptInts) break;
        auto l = int_list(v, table);
        if (!l) return std::nullopt;
        c.aten[a.name] = Attr(std::move(*l));
        break;
      }
      case ArgKind::Any: break;
    }
  }
  while (!c.in.empty() && c.in.back() == -1) c.in.pop_back();
  return c;
}

void native_tensors(const std::vector<int32_t>& args, const std::vector<RawValue>& table, std::vector<int64_t>& in,
                    std::vector<int64_t>& out) {
  in.clear();
  out.clear();
  for (std::size_t k = 0; k < args.size(); ++k) {
    auto& dst = k + 1 == args.size() ? out : in;
    const int32_t id = args[k];
    if (id < 0 || static_cast<std::size_t>(id) >= table.size()) continue;
    const RawValue& v = table[static_cast<std::size_t>(id)];
    if (v.kind == Kind::Tensor) dst.push_back(id);
    if (v.kind == Kind::ValueList)
      for (int64_t item : v.ints)
        if (item >= 0 && static_cast<std::size_t>(item) < table.size() && table[item].kind == Kind::Tensor)
          dst.push_back(item);
  }
}

}  // namespace nnbridge::formats::vkgraph
