#include "nnbridge/op_schema.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>

#include "nnbridge/error.h"
#include "ops/ops.h"

namespace nnbridge {

const AttrSpec* OpSchema::find_attr(std::string_view attr_name) const {
  for (const AttrSpec& a : attrs)
    if (a.name == attr_name) return &a;
  return nullptr;
}

const Attr* InferenceContext::attr(std::string_view name) const {
  auto it = node.attrs.find(name);
  if (it != node.attrs.end()) return &it->second;
  if (schema)
    if (const AttrSpec* spec = schema->find_attr(name); spec && spec->default_value) return &*spec->default_value;
  return nullptr;
}

namespace {
template <class T>
const T& typed_attr(const InferenceContext& ctx, std::string_view name, AttrType want) {
  const Attr* a = ctx.attr(name);
  if (!a) throw Error(ErrorId::AttributeValue, "attribute '" + std::string(name) + "' is missing");
  if (!a->is<T>())
    throw Error(ErrorId::AttributeValue, "attribute '" + std::string(name) + "' is " + std::string(to_string(a->type())) +
                                        ", expected " + std::string(to_string(want)));
  return a->get<T>();
}
}  // namespace

int64_t InferenceContext::attr_int(std::string_view name) const {
  return typed_attr<int64_t>(*this, name, AttrType::Int);
}
double InferenceContext::attr_float(std::string_view name) const {
  return typed_attr<double>(*this, name, AttrType::Float);
}
const std::string& InferenceContext::attr_string(std::string_view name) const {
  return typed_attr<std::string>(*this, name, AttrType::String);
}
const std::vector<int64_t>& InferenceContext::attr_ints(std::string_view name) const {
  return typed_attr<std::vector<int64_t>>(*this, name, AttrType::Ints);
}
const std::vector<double>& InferenceContext::attr_floats(std::string_view name) const {
  return typed_attr<std::vector<double>>(*this, name, AttrType::Floats);
}

namespace {

struct Registry {
  std::shared_mutex mutex;
  std::map<std::string, std::unique_ptr<OpSchema>, std::less<>> by_name;
  // Replaced schemas stay alive: callers may still hold pointers from find_schema.
  std::vector<std::unique_ptr<OpSchema>> replaced;

  Registry() {
    std::vector<OpSchema> all;
    ops::add_elementwise_ops(all);
    ops::add_activation_ops(all);
    ops::add_conv_pool_ops(all);
    ops::add_normalization_ops(all);
    ops::add_tensor_shape_ops(all);
    ops::add_slice_gather_ops(all);
    ops::add_reduce_ops(all);
    ops::add_quantize_ops(all);
    ops::add_misc_ops(all);
    ops::add_index_ops(all);
    ops::add_value_shaped_ops(all);
    ops::add_matrix_ops(all);
    ops::add_axis_ops(all);
    ops::add_loss_ops(all);
    ops::add_rnn_ops(all);
    for (OpSchema& s : all) insert(std::move(s));
  }

  void insert(OpSchema s) {
    std::string name = s.name;
    auto& slot = by_name[name];
    if (slot) replaced.push_back(std::move(slot));
    slot = std::make_unique<OpSchema>(std::move(s));
  }
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

const OpSchema* find_schema(std::string_view op) {
  Registry& r = registry();
  std::shared_lock lock(r.mutex);
  auto it = r.by_name.find(op);
  return it == r.by_name.end() ? nullptr : it->second.get();
}

std::vector<const OpSchema*> all_schemas() {
  Registry& r = registry();
  std::shared_lock lock(r.mutex);
  std::vector<const OpSchema*> out;
  out.reserve(r.by_name.size());
  for (auto& [name, s] : r.by_name) out.push_back(s.get());
  return out;
}

void register_schema(OpSchema schema) {
  if (schema.name.empty()) throw Error(ErrorId::InvalidOther, "an op schema needs a name");
  Registry& r = registry();
  std::unique_lock lock(r.mutex);
  r.insert(std::move(schema));
}

std::optional<std::vector<TensorType>> infer_types(const Graph& g, std::size_t index) {
  const std::string where = "nodes[" + std::to_string(index) + "]";
  if (index >= g.nodes.size())
    throw Error(ErrorId::DanglingReference, "node index out of range (" + std::to_string(g.nodes.size()) + " nodes)", {}, where);
  const Node& node = g.nodes[index];
  const OpSchema* schema = find_schema(node.op);
  if (!schema || !schema->infer) return std::nullopt;

  std::vector<TensorType> in_types(node.inputs.size());
  std::vector<const Buffer*> in_consts(node.inputs.size(), nullptr);
  for (std::size_t i = 0; i < node.inputs.size(); ++i) {
    ValueId id = node.inputs[i];
    if (id == kNoValue) {
      in_types[i].unknown_rank = true;  // nothing is known of an absent input
      continue;
    }
    if (id >= g.values.size())
      throw Error(ErrorId::DanglingReference, "value id " + std::to_string(id) + " out of range", {},
                  where + ".inputs[" + std::to_string(i) + "]");
    in_types[i] = g.values[id].type;
    if (g.values[id].constant) in_consts[i] = &*g.values[id].constant;
  }
  std::vector<TensorType> out_types;
  for (ValueId id : node.outputs)
    out_types.push_back(id < g.values.size() ? g.values[id].type : TensorType{});

  InferenceContext ctx{node, in_types, in_consts, schema, out_types};
  try {
    return schema->infer(ctx);
  } catch (const Error& e) {
    throw Error(e.id(), node.op + ": " + e.message(), {}, where);
  } catch (const std::exception& e) {
    throw Error(ErrorId::InvalidOther, node.op + ": " + e.what(), {}, where);
  }
}

void resolve_output_types(Graph& g, std::size_t index, const std::optional<std::vector<TensorType>>& inferred,
                          const std::string& infer_error, const std::string& label, const std::string& where) {
  const Node& n = g.nodes.at(index);
  for (std::size_t o = 0; o < n.outputs.size(); ++o) {
    TensorType& t = g.values[n.outputs[o]].type;
    const std::string output = label + ": output " + std::to_string(o);
    if (inferred && o < inferred->size()) {
      TensorType r = (*inferred)[o];
      if (t.dtype != DataType::Undefined) r.dtype = t.dtype;
      if (!r.unknown_rank && !t.unknown_rank) {
        if (r.shape.size() != t.shape.size() && t.fully_known())
          throw Error(ErrorId::Shape, output + " is declared with rank " + std::to_string(t.shape.size()) +
                                              ", the inputs give rank " + std::to_string(r.shape.size()), {}, where);
        if (r.shape.size() == t.shape.size())
          for (std::size_t d = 0; d < r.shape.size(); ++d) {
            if (r.shape[d] >= 0 && t.shape[d] >= 0 && r.shape[d] != t.shape[d])
              throw Error(ErrorId::Shape, output + " dim " + std::to_string(d) + " is declared " +
                                                  std::to_string(t.shape[d]) + ", the inputs give " + std::to_string(r.shape[d]),
                          {}, where);
            if (r.shape[d] < 0) r.shape[d] = t.shape[d];
          }
      }
      if (r.unknown_rank) r = TensorType{r.dtype, t.shape, t.unknown_rank, std::nullopt};
      r.quantization = t.quantization;
      if (r.fully_known()) t = r;
    }
    if (!t.fully_known())
      throw Error(infer_error.empty() ? ErrorId::UnsupportedOther : ErrorId::InvalidOther,
                  "cannot resolve the type of output " + std::to_string(o) + " of " + label +
                      (infer_error.empty() ? "" : ": " + infer_error), {}, where);
  }
}

}  // namespace nnbridge
