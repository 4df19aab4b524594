// nnbridge/attr_rename.h: field <-> canonical attribute values for the formats' mapping tables.
#include "nnbridge/attr_rename.h"

#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"

namespace nnbridge {

Attr rename_to_canonical(const AttrRename& r, const Attr& v) {
  switch (r.kind) {
    case RenameKind::Same: return v;
    case RenameKind::BoolAsInt:
      if (v.is<bool>()) return Attr(int64_t{v.get<bool>()});
      if (v.is<int64_t>()) return Attr(int64_t{v.get<int64_t>() != 0});
      break;
    case RenameKind::IntAsInts:
      if (v.is<int64_t>()) return Attr(std::vector<int64_t>{v.get<int64_t>()});
      break;
  }
  throw Error(ErrorId::AttributeValue, r.field + " is " + std::string(to_string(v.type())) + ", not the " +
                                           (r.kind == RenameKind::BoolAsInt ? "bool" : "int") + " that becomes " + r.attr);
}

Attr rename_from_canonical(const AttrRename& r, const Attr& v, std::string_view owner) {
  switch (r.kind) {
    case RenameKind::Same: return v;
    case RenameKind::BoolAsInt: return v.is<int64_t>() ? Attr(v.get<int64_t>() != 0) : v;
    case RenameKind::IntAsInts: {
      if (!v.is<std::vector<int64_t>>()) return v;
      const auto& list = v.get<std::vector<int64_t>>();
      if (list.size() != 1)
        throw Error(ErrorId::NoForm, std::string(owner) + " takes one " + r.field + ", not " + std::to_string(list.size()));
      return Attr(list[0]);
    }
  }
  return v;
}

AttrMap with_schema_defaults(std::string_view op, AttrMap attrs) {
  if (const OpSchema* s = find_schema(op))
    for (const AttrSpec& spec : s->attrs)
      if (spec.default_value && !attrs.count(spec.name)) attrs.emplace(spec.name, *spec.default_value);
  return attrs;
}

}  // namespace nnbridge
