// How a SimpleGPU layer's bindings meet a node (OpenVINO intel_gpu rules): the B, F, Y, X the
// work-size formulas read, internal buffer sizes, and which node port each <Tensor> names.
#include <algorithm>
#include <climits>

#include "nnbridge/config/openvino_custom.h"

namespace nnbridge::config::openvino_custom {

std::optional<Dims> work_size_dims(std::span<const int64_t> shape, bool from_input) {
  if (shape.size() > 4) return std::nullopt;
  if (!from_input) return dims_of(shape);
  Dims d{0, 0, 0, 0};
  // X is the last dim, Y the one before it, and so on towards B.
  for (std::size_t k = 0; k < shape.size(); ++k) d[3 - k] = shape[shape.size() - 1 - k];
  return d;
}

namespace {

// One pass over an internal size formula; with `shape` it also multiplies.
int64_t internal_size(std::string_view s, const std::span<const int64_t>* shape) {
  const std::string shown = s.size() <= 80 ? std::string(s) : std::string(s.substr(0, 77)) + "...";
  // A size that does not parse: its attribute is outside its domain, unless the caller says more.
  auto fail = [&](std::size_t at, const std::string& why, ErrorId id = ErrorId::AttributeValue) {
    return Error(id, "size \"" + shown + "\": column " + std::to_string(at + 1) + ": " + why);
  };
  constexpr int64_t kMax = int64_t{1} << 53;
  static constexpr std::string_view kDims = "INPUT0_DIMS[";
  auto blank = [&](std::size_t p) { return p < s.size() && (s[p] == ' ' || s[p] == '\t'); };
  auto digits = [&](std::size_t& p, const char* what) {
    const std::size_t start = p;
    int64_t v = 0;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
      v = v * 10 + (s[p++] - '0');
      if (v > kMax) throw fail(start, std::string(what) + " is too large", ErrorId::Narrowing);
    }
    if (p == start) throw fail(start, std::string("expected ") + what);
    return v;
  };
  if (s.empty()) throw fail(0, "the size is empty");
  int64_t product = 1;
  std::size_t p = 0;
  for (;;) {
    while (blank(p)) ++p;
    const std::size_t at = p;
    int64_t v = 0;
    if (s.substr(p, kDims.size()) == kDims) {
      p += kDims.size();
      const int64_t index = digits(p, "a dimension index");
      if (p >= s.size() || s[p] != ']') throw fail(p, "expected ']'");
      ++p;
      if (shape) {
        if (index >= static_cast<int64_t>(shape->size()))
          throw fail(at, "INPUT0_DIMS[" + std::to_string(index) + "] is past input 0's rank " + std::to_string(shape->size()), ErrorId::DanglingReference);
        v = (*shape)[static_cast<std::size_t>(index)];
        if (v < 0) throw fail(at, "input 0's dim " + std::to_string(index) + " is unknown", ErrorId::Shape);
      }
    } else if (p < s.size() && s[p] >= '0' && s[p] <= '9') {
      v = digits(p, "a number");
    } else {
      throw fail(p, p >= s.size() ? "a factor is missing at the end"
                                  : "unexpected '" + std::string(1, s[p]) +
                                        "' (a size multiplies non-negative integers and INPUT0_DIMS[i] with '*')");
    }
    if (shape) {
      if (v != 0 && product > kMax / v) throw fail(at, "the size exceeds 2^53 elements", ErrorId::Narrowing);
      product *= v;
    }
    while (blank(p)) ++p;
    if (p == s.size()) return product;
    if (s[p] != '*') throw fail(p, "unexpected '" + std::string(1, s[p]) + "' (factors are joined by '*')");
    ++p;
  }
}

}  // namespace

bool is_legal_internal_size(std::string_view formula, std::string* why) {
  try {
    internal_size(formula, nullptr);
    return true;
  } catch (const Error& e) {
    if (why) *why = e.message();
    return false;
  }
}

int64_t evaluate_internal_size(std::string_view formula, std::span<const int64_t> input0_shape) {
  return internal_size(formula, &input0_shape);
}

std::vector<std::size_t> resolve_ports(const SimpleGpuLayer& layer, std::size_t inputs, std::size_t outputs) {
  const std::string who = "custom layer \"" + layer.name + "\" (" + layer.where.text() + ")";
  std::vector<std::size_t> out(layer.tensors.size(), 0);
  bool all_outputs = true, all_ir = true;
  std::string outs;  // the output port-indices, for the message
  for (const TensorBinding& t : layer.tensors) {
    if (t.type != TensorBinding::Direction::Output) continue;
    const auto p = static_cast<std::size_t>(t.port_index);
    all_outputs = all_outputs && p < outputs;
    all_ir = all_ir && p >= inputs && p - inputs < outputs;
    outs += (outs.empty() ? "" : ", ") + std::to_string(t.port_index);
  }
  if (!all_outputs && !all_ir)
    throw Error(ErrorId::DanglingReference, who + ": output port-index " + outs + " fit neither numbering for a node with " +
                                        std::to_string(inputs) + " input(s) and " + std::to_string(outputs) +
                                        " output(s): output numbers 0.." + std::to_string(outputs) + "-1, or IR port ids " +
                                        std::to_string(inputs) + ".." + std::to_string(inputs + outputs) + "-1");
  for (std::size_t k = 0; k < layer.tensors.size(); ++k) {
    const TensorBinding& t = layer.tensors[k];
    const auto p = static_cast<std::size_t>(t.port_index);
    if (t.type == TensorBinding::Direction::Input) {
      if (p >= inputs)
        throw Error(ErrorId::DanglingReference, who + ": <Tensor> at line " + std::to_string(t.where.line) + " binds input port " +
                                            std::to_string(p) + ", the node has " + std::to_string(inputs) + " input(s)");
      out[k] = p;
    } else if (t.type == TensorBinding::Direction::Output) {
      out[k] = all_outputs ? p : p - inputs;
    }
  }
  return out;
}

}  // namespace nnbridge::config::openvino_custom
