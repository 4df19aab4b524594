// NodeContext attribute access (nnbridge/exec/node_context.h).
#include "nnbridge/exec/node_context.h"

#include "nnbridge/axis.h"
#include "nnbridge/error.h"

namespace nnbridge::exec {

const Attr* NodeContext::attr(std::string_view name) const {
  auto it = node.attrs.find(name);
  if (it != node.attrs.end()) return &it->second;
  if (schema)
    if (const AttrSpec* s = schema->find_attr(name); s && s->default_value) return &*s->default_value;
  return nullptr;
}

int64_t NodeContext::attr_int(std::string_view name, int64_t fallback) const {
  const Attr* a = attr(name);
  if (!a) return fallback;
  if (a->is<int64_t>()) return a->get<int64_t>();
  if (a->is<bool>()) return a->get<bool>() ? 1 : 0;
  invalid(ErrorId::AttributeValue, "attribute " + std::string(name) + " is not an int");
}

double NodeContext::attr_float(std::string_view name, double fallback) const {
  const Attr* a = attr(name);
  if (!a) return fallback;
  if (a->is<double>()) return a->get<double>();
  if (a->is<int64_t>()) return static_cast<double>(a->get<int64_t>());
  invalid(ErrorId::AttributeValue, "attribute " + std::string(name) + " is not a float");
}

std::string NodeContext::attr_string(std::string_view name, std::string fallback) const {
  const Attr* a = attr(name);
  if (!a) return fallback;
  if (a->is<std::string>()) return a->get<std::string>();
  invalid(ErrorId::AttributeValue, "attribute " + std::string(name) + " is not a string");
}

std::vector<int64_t> NodeContext::attr_ints(std::string_view name, std::vector<int64_t> fallback) const {
  const Attr* a = attr(name);
  if (!a) return fallback;
  if (a->is<std::vector<int64_t>>()) return a->get<std::vector<int64_t>>();
  invalid(ErrorId::AttributeValue, "attribute " + std::string(name) + " is not a list of ints");
}

int64_t NodeContext::attr_axis(std::string_view name, int64_t fallback, int64_t rank) const {
  return normalize_axis(attr_int(name, fallback), rank, name);
}

const FloatConstant& NodeContext::value(std::size_t input, std::string_view what) const {
  if (!has_input(input)) invalid(ErrorId::Arity, "input " + std::to_string(input) + " (" + std::string(what) + ") is absent");
  if (input >= constants.size() || !constants[input])
    throw NeedsValue("input " + std::to_string(input) + " (" + std::string(what) +
                     ") is not a constant: the kernel needs its value at prepare");
  return *constants[input];
}

void NodeContext::unsupported(ErrorId id, const std::string& what) const { throw Error(id, what); }
void NodeContext::invalid(ErrorId id, const std::string& what) const { throw Error(id, what); }
void NodeContext::unsupported(const std::string& what) const { unsupported(ErrorId::Feature, what); }
void NodeContext::invalid(const std::string& what) const { invalid(ErrorId::InvalidOther, what); }

std::vector<float> implied_bias_scale(const NodeContext& ctx, int64_t channels) {
  if (!ctx.has_input(2) || ctx.in[2].dtype != DataType::Int32) return {};
  if (ctx.in[2].quantization && !ctx.in[2].quantization->scales.empty()) return {};
  const auto& xq = ctx.in[0].quantization;
  const auto& wq = ctx.in[1].quantization;
  if (!is_quantized(ctx.in[0].dtype) || !xq || xq->scales.empty() || !wq || wq->scales.empty()) return {};
  std::vector<float> s(static_cast<std::size_t>(channels));
  for (int64_t o = 0; o < channels; ++o) {
    const double ws = wq->scales.size() == static_cast<std::size_t>(channels) ? wq->scales[o] : wq->scales[0];
    s[o] = static_cast<float>(xq->scales[0] * ws);
  }
  return s;
}

}  // namespace nnbridge::exec
