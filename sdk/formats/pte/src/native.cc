// A method that is not one Vulkan delegate, read as native nodes: each KernelCall an `et.<name>`
// node, each DelegateCall an `et.delegate` node, tensors as values with their constants.
#include <set>

#include "internal.h"
#include "nnbridge/error.h"
#include "program.h"

namespace nnbridge::formats::pte {

namespace {

std::string at(const std::string& vec, std::size_t i) { return vec + "[" + std::to_string(i) + "]"; }

class NativeReader {
 public:
  NativeReader(const et::Program& p, const ProgramView& v, const Source& src, std::size_t plan_index, const NamedData* ptd)
      : p_(p), v_(v), src_(src), plan_(*p.execution_plan()->Get(static_cast<flatbuffers::uoffset_t>(plan_index))),
        where_(at("execution_plan", plan_index)), ptd_(ptd) {}

  Graph run() {
    const std::size_t n = plan_.values() ? plan_.values()->size() : 0;
    ir_of_.assign(n, kNoValue);
    std::vector<std::string> names(n);
    auto name_list = [&](const flatbuffers::Vector<int32_t>* ids, const char* prefix) {
      if (!ids) return;
      for (flatbuffers::uoffset_t k = 0; k < ids->size(); ++k)
        if (ids->Get(k) >= 0 && static_cast<std::size_t>(ids->Get(k)) < n && names[static_cast<std::size_t>(ids->Get(k))].empty())
          names[static_cast<std::size_t>(ids->Get(k))] = prefix + std::to_string(k);
    };
    name_list(plan_.inputs(), "input_");
    name_list(plan_.outputs(), "output_");
    for (std::size_t k = 0; k < n; ++k)
      if (const et::Tensor* t = plan_.values()->Get(static_cast<flatbuffers::uoffset_t>(k))->val_as_Tensor())
        ir_of_[k] = g_.add_value(tensor(*t, k, names[k].empty() ? "v" + std::to_string(k) : names[k]));
    auto io = [&](const flatbuffers::Vector<int32_t>* ids, std::vector<ValueId>& dst, const char* what) {
      if (!ids) return;
      for (flatbuffers::uoffset_t k = 0; k < ids->size(); ++k) {
        const int32_t id = ids->Get(k);
        if (id < 0 || static_cast<std::size_t>(id) >= n)
          throw Error(ErrorId::DanglingReference, "value " + std::to_string(id) + " is outside the method's values", {},
                      where_ + "." + what + "[" + std::to_string(k) + "]");
        if (ir_of_[static_cast<std::size_t>(id)] == kNoValue)
          throw Error(ErrorId::Feature, "value " + std::to_string(id) + " is not a tensor", {}, where_ + "." + what + "[" + std::to_string(k) + "]");
        dst.push_back(ir_of_[static_cast<std::size_t>(id)]);
      }
    };
    io(plan_.inputs(), g_.inputs, "inputs");
    io(plan_.outputs(), g_.outputs, "outputs");
    defined_.assign(g_.values.size(), false);
    for (ValueId id : g_.inputs) defined_[id] = true;
    for (std::size_t k = 0; k < g_.values.size(); ++k) defined_[k] = defined_[k] || g_.values[k].constant || g_.values[k].attrs.count(kExternalDataKey);
    if (plan_.chains())
      for (flatbuffers::uoffset_t c = 0; c < plan_.chains()->size(); ++c)
        if (const auto* ins = plan_.chains()->Get(c)->instructions())
          for (flatbuffers::uoffset_t i = 0; i < ins->size(); ++i)
            instruction(*ins->Get(i), where_ + ".chains[" + std::to_string(c) + "].instructions[" + std::to_string(i) + "]");
    return std::move(g_);
  }

 private:
  Value tensor(const et::Tensor& t, std::size_t k, std::string name) {
    const std::string w = where_ + ".values[" + std::to_string(k) + "].val";
    Value v;
    v.name = std::move(name);
    auto dt = ir_dtype(static_cast<int8_t>(t.scalar_type()));
    if (!dt) throw Error(ErrorId::DataType, "scalar type " + std::to_string(int(t.scalar_type())) + " has no nnbridge dtype", {}, w + ".scalar_type");
    v.type.dtype = *dt;
    if (t.sizes())
      for (int32_t d : *t.sizes()) v.type.shape.push_back(d);
    v.attrs["et.value"] = Attr(int64_t(k));
    const auto bytes = v.type.byte_size();
    if (!bytes) throw Error(ErrorId::Shape, "the element count overflows or a size is negative", {}, w + ".sizes");
    const et::ExtraTensorInfo* extra = t.extra_tensor_info();
    if (extra && extra->location() == et::TensorDataLocation::EXTERNAL) {
      // Named data of the .ptd, keyed by the tensor's fully qualified name.
      const std::string key = extra->fully_qualified_name() ? extra->fully_qualified_name()->str() : "";
      if (ptd_)
        if (auto it = ptd_->by_key.find(key); it != ptd_->by_key.end()) {
          const Buffer& b = ptd_->entries[it->second].bytes;
          if (b.size() < static_cast<std::size_t>(*bytes))
            throw Error(ErrorId::Shape, "named data \"" + key + "\" is smaller than the tensor", {}, w);
          v.constant = b.slice(0, static_cast<std::size_t>(*bytes));
          return v;
        }
      v.attrs[kExternalDataKey] = Attr(key);
      g_.metadata[kExternalDataHint] = Attr(std::string("pass the .ptd that holds it with -I pte.named_data=FILE.ptd"));
      return v;
    }
    if (t.data_buffer_idx() == 0) return v;  // planned memory: an input or an intermediate
    // A constant: offset data_buffer_idx of the constant segment (or constant_buffer in files
    // without segments).
    const std::size_t idx = t.data_buffer_idx();
    const et::SubsegmentOffsets* cs = p_.constant_segment();
    if (cs && cs->offsets() && cs->offsets()->size() > 0) {
      if (idx >= cs->offsets()->size() || cs->segment_index() >= v_.segments.size())
        throw Error(ErrorId::DanglingReference, "data_buffer_idx " + std::to_string(idx) + " names no constant", {}, w + ".data_buffer_idx");
      auto [off, size] = v_.segments[cs->segment_index()];
      const uint64_t at_off = cs->offsets()->Get(static_cast<flatbuffers::uoffset_t>(idx));
      if (at_off > size || static_cast<uint64_t>(*bytes) > size - at_off)
        throw Error(at_off > size ? ErrorId::DanglingReference : ErrorId::Shape,
                    "the constant lies past the end of the constant segment", {}, w + ".data_buffer_idx");
      v.constant = src_.view(off + static_cast<std::size_t>(at_off), static_cast<std::size_t>(*bytes));
    } else if (p_.constant_buffer() && idx < p_.constant_buffer()->size() && p_.constant_buffer()->Get(static_cast<flatbuffers::uoffset_t>(idx))->storage()) {
      const auto* s = p_.constant_buffer()->Get(static_cast<flatbuffers::uoffset_t>(idx))->storage();
      if (s->size() < static_cast<std::size_t>(*bytes))
        throw Error(ErrorId::Shape, "constant_buffer entry is smaller than the tensor", {}, w + ".data_buffer_idx");
      const auto off = static_cast<std::size_t>(reinterpret_cast<const std::byte*>(s->data()) - src_.bytes.data());
      v.constant = src_.view(off, static_cast<std::size_t>(*bytes));
    } else {
      throw Error(ErrorId::DanglingReference, "data_buffer_idx " + std::to_string(idx) + " names no constant", {}, w + ".data_buffer_idx");
    }
    return v;
  }

  // The non-tensor EValue k as an attribute, when it has one.
  std::optional<Attr> scalar(std::size_t k) const {
    const et::EValue* e = plan_.values()->Get(static_cast<flatbuffers::uoffset_t>(k));
    switch (e->val_type()) {
      case et::KernelTypes::Int: return Attr(e->val_as_Int()->int_val());
      case et::KernelTypes::Double: return Attr(e->val_as_Double()->double_val());
      case et::KernelTypes::Bool: return Attr(e->val_as_Bool()->bool_val());
      case et::KernelTypes::String:
        return e->val_as_String()->string_val() ? std::optional<Attr>(Attr(e->val_as_String()->string_val()->str())) : std::nullopt;
      case et::KernelTypes::IntList:
        if (const auto* l = e->val_as_IntList()->items()) return Attr(std::vector<int64_t>(l->begin(), l->end()));
        return std::nullopt;
      case et::KernelTypes::DoubleList:
        if (const auto* l = e->val_as_DoubleList()->items()) return Attr(std::vector<double>(l->begin(), l->end()));
        return std::nullopt;
      case et::KernelTypes::BoolList:
        if (const auto* l = e->val_as_BoolList()->items()) return Attr(std::vector<bool>(l->begin(), l->end()));
        return std::nullopt;
      default: return std::nullopt;
    }
  }

  // Tensor args already defined are inputs, the others outputs (out-variant kernels and delegates
  // take their outputs last); list items count as their tensors.
  void instruction(const et::Instruction& in, const std::string& w) {
    const flatbuffers::Vector<int32_t>* args = nullptr;
    Node n;
    if (const auto* k = in.instr_args_as_KernelCall()) {
      n.op = "et." + operator_name(plan_, static_cast<std::size_t>(k->op_index()));
      args = k->args();
    } else if (const auto* d = in.instr_args_as_DelegateCall()) {
      const auto* dels = plan_.delegates();
      if (!dels || d->delegate_index() < 0 || static_cast<std::size_t>(d->delegate_index()) >= dels->size())
        throw Error(ErrorId::DanglingReference, "delegate_index " + std::to_string(d->delegate_index()) + " names no delegate", {}, w);
      const auto* del = dels->Get(static_cast<flatbuffers::uoffset_t>(d->delegate_index()));
      n.op = "et.delegate";
      n.attrs["et.backend"] = Attr(del->id() ? del->id()->str() : std::string());
      n.attrs["et.delegate_index"] = Attr(int64_t(d->delegate_index()));
      args = d->args();
    } else if (in.instr_args_type() == et::InstructionArguments::FreeCall) {
      return;  // memory bookkeeping, no data flow
    } else {
      throw Error(ErrorId::Feature, std::string(et::EnumNameInstructionArguments(in.instr_args_type())) +
                                              " (control flow or moves) is not read", {}, w);
    }
    n.name = "node_" + std::to_string(g_.nodes.size());
    std::vector<int64_t> raw;
    const std::size_t nv = plan_.values() ? plan_.values()->size() : 0;
    std::vector<ValueId> outs;
    auto tensor_arg = [&](int32_t id) {
      const ValueId v = ir_of_[static_cast<std::size_t>(id)];
      if (defined_[v]) n.inputs.push_back(v);
      else outs.push_back(v);
    };
    if (args)
      for (flatbuffers::uoffset_t a = 0; a < args->size(); ++a) {
        const int32_t id = args->Get(a);
        raw.push_back(id);
        if (id < 0 || static_cast<std::size_t>(id) >= nv)
          throw Error(ErrorId::DanglingReference, "argument " + std::to_string(id) + " is outside the method's values", {}, w + ".args[" + std::to_string(a) + "]");
        if (ir_of_[static_cast<std::size_t>(id)] != kNoValue) {
          tensor_arg(id);
          continue;
        }
        const et::EValue* e = plan_.values()->Get(static_cast<flatbuffers::uoffset_t>(id));
        const flatbuffers::Vector<int32_t>* items = e->val_type() == et::KernelTypes::TensorList ? e->val_as_TensorList()->items()
                                                  : e->val_type() == et::KernelTypes::OptionalTensorList
                                                      ? e->val_as_OptionalTensorList()->items()
                                                      : nullptr;
        if (items) {
          for (int32_t item : *items)
            if (item >= 0 && static_cast<std::size_t>(item) < nv && ir_of_[static_cast<std::size_t>(item)] != kNoValue) tensor_arg(item);
          continue;
        }
        if (auto s = scalar(static_cast<std::size_t>(id))) n.attrs["et.arg." + std::to_string(a)] = *s;
      }
    n.attrs["et.args"] = Attr(std::move(raw));
    for (ValueId v : outs) {
      defined_[v] = true;
      n.outputs.push_back(v);
    }
    g_.add_node(std::move(n));
  }

  const et::Program& p_;
  const ProgramView& v_;
  const Source& src_;
  const et::ExecutionPlan& plan_;
  std::string where_;
  const NamedData* ptd_;
  Graph g_;
  std::vector<ValueId> ir_of_;  // EValue index -> IR value (tensors only)
  std::vector<bool> defined_;   // per IR value: an input, a constant or written by an earlier instruction
};

}  // namespace

Graph native_method(const et::Program& p, const ProgramView& v, const Source& src, std::size_t plan_index, const NamedData* ptd) {
  return NativeReader(p, v, src, plan_index, ptd).run();
}

}  // namespace nnbridge::formats::pte
