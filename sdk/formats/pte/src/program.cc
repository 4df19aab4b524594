// Verifying a Program and finding a method's Vulkan delegate.
#include "program.h"

#include <cstring>
#include <map>

#include "internal.h"
#include "nnbridge/error.h"

namespace nnbridge::formats::pte {

namespace {

std::string at(const std::string& vec, std::size_t i) { return vec + "[" + std::to_string(i) + "]"; }

// The verifier accepts a union whose type is set but whose table is absent (a null offset); the
// readers use the table, so such a Program is Malformed here, naming the place.
void check_unions(const et::Program& p) {
  const auto* plans = p.execution_plan();
  if (!plans) return;
  for (flatbuffers::uoffset_t k = 0; k < plans->size(); ++k) {
    const et::ExecutionPlan* plan = plans->Get(k);
    const std::string where = at("execution_plan", k);
    if (const auto* values = plan->values())
      for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i)
        if (values->Get(i)->val_type() != et::KernelTypes::NONE && !values->Get(i)->val())
          throw Error(ErrorId::BadEncoding,
                      std::string("EValue of type ") + et::EnumNameKernelTypes(values->Get(i)->val_type()) + " has no table",
                      {}, where + ".values[" + std::to_string(i) + "]");
    if (const auto* chains = plan->chains())
      for (flatbuffers::uoffset_t c = 0; c < chains->size(); ++c)
        if (const auto* ins = chains->Get(c)->instructions())
          for (flatbuffers::uoffset_t i = 0; i < ins->size(); ++i)
            if (ins->Get(i)->instr_args_type() != et::InstructionArguments::NONE && !ins->Get(i)->instr_args())
              throw Error(ErrorId::BadEncoding,
                          std::string("instruction of type ") + et::EnumNameInstructionArguments(ins->Get(i)->instr_args_type()) +
                              " has no table",
                          {}, where + ".chains[" + std::to_string(c) + "].instructions[" + std::to_string(i) + "]");
  }
}

}  // namespace

ProgramView view_program(std::span<const std::byte> file, const VerifierLimits& limits) {
  if (file.size() < 8) throw Error(ErrorId::Truncated, "a file of " + std::to_string(file.size()) + " bytes is no Program", {}, "file_identifier");
  const auto* base = reinterpret_cast<const uint8_t*>(file.data());
  if (std::memcmp(base + 4, "ET12", 4) != 0) {
    const std::string id(reinterpret_cast<const char*>(base + 4), 4);
    if (id.rfind("ET", 0) == 0)
      throw Error(ErrorId::Version, "program schema " + id + ": nnbridge reads ET12 (ExecuTorch 0.4 and later)", {}, "file_identifier");
    throw Error(ErrorId::BadIdentifier, "file identifier is not ET12", {}, "file_identifier");
  }
  ProgramView v;
  v.header = parse_extended_header(file);
  v.program_size = v.header ? static_cast<std::size_t>(v.header->program_size) : file.size();
  flatbuffers::Verifier::Options vo;
  vo.max_depth = limits.max_depth;
  vo.max_tables = limits.max_tables;
  flatbuffers::Verifier verifier(base, v.program_size, vo);
  if (!et::VerifyProgramBuffer(verifier)) throw Error(ErrorId::VerifyFailed, "Program verification failed", {}, "program");
  v.program = et::GetProgram(base);
  check_unions(*v.program);
  if (const auto* segs = v.program->segments(); segs && segs->size() > 0) {
    if (!v.header || v.header->segment_base_offset == 0)
      throw Error(ErrorId::MalformedOther, "the Program lists segments but the file has no extended header giving their base", {},
                  "segments");
    const uint64_t base_off = v.header->segment_base_offset, n = file.size();
    for (flatbuffers::uoffset_t k = 0; k < segs->size(); ++k) {
      const et::DataSegment* s = segs->Get(k);
      if (s->offset() > n - base_off || s->size() > n - base_off - s->offset())
        throw Error(ErrorId::Truncated, "segment [" + std::to_string(s->offset()) + ", +" + std::to_string(s->size()) +
                                              ") from the base at " + std::to_string(base_off) + " lies past the end of the " +
                                              std::to_string(n) + "-byte file", {}, at("segments", k));
      v.segments.emplace_back(static_cast<std::size_t>(base_off + s->offset()), static_cast<std::size_t>(s->size()));
    }
  }
  return v;
}

std::size_t choose_method(const et::Program& p, const std::string& wanted) {
  const auto* plans = p.execution_plan();
  std::vector<std::string> names;
  if (plans)
    for (const et::ExecutionPlan* plan : *plans) names.push_back(plan->name() ? plan->name()->str() : std::string());
  auto find = [&](const std::string& n) -> std::optional<std::size_t> {
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == n) return k;
    return std::nullopt;
  };
  std::string list;
  for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
  if (!wanted.empty()) {
    if (auto k = find(wanted)) return *k;
    throw Error(ErrorId::OptionValue, "no method \"" + wanted + "\" (the program has: " + list + ")", {}, "execution_plan");
  }
  if (auto k = find("forward")) return *k;
  if (names.size() == 1) return 0;
  if (names.empty()) throw Error(ErrorId::Arity, "the program has no method", {}, "execution_plan");
  throw Error(ErrorId::InvalidOther, "the program has several methods and none is \"forward\": choose one with -I pte.method=NAME (" + list + ")",
              {}, "execution_plan");
}

std::string operator_name(const et::ExecutionPlan& plan, std::size_t k) {
  if (!plan.operators() || k >= plan.operators()->size()) return "?";
  const et::Operator* op = plan.operators()->Get(static_cast<flatbuffers::uoffset_t>(k));
  std::string n = op->name() ? op->name()->str() : "";
  if (op->overload() && op->overload()->size() > 0) n += "." + op->overload()->str();
  return n;
}

VulkanCall vulkan_call(const et::Program& p, std::size_t plan_index) {
  const et::ExecutionPlan* plan = p.execution_plan()->Get(static_cast<flatbuffers::uoffset_t>(plan_index));
  const std::string name = plan->name() ? plan->name()->str() : "";
  const std::string where = at("execution_plan", plan_index);
  std::map<std::string, int> kernels, delegates, other;
  std::vector<std::pair<const et::DelegateCall*, std::size_t>> calls;
  const std::size_t n_delegates = plan->delegates() ? plan->delegates()->size() : 0;
  if (plan->chains())
    for (flatbuffers::uoffset_t c = 0; c < plan->chains()->size(); ++c) {
      const auto* ins = plan->chains()->Get(c)->instructions();
      if (!ins) continue;
      for (flatbuffers::uoffset_t i = 0; i < ins->size(); ++i) {
        const et::Instruction* in = ins->Get(i);
        switch (in->instr_args_type()) {
          case et::InstructionArguments::KernelCall:
            ++kernels[operator_name(*plan, static_cast<std::size_t>(in->instr_args_as_KernelCall()->op_index()))];
            break;
          case et::InstructionArguments::DelegateCall: {
            const auto* d = in->instr_args_as_DelegateCall();
            if (d->delegate_index() < 0 || static_cast<std::size_t>(d->delegate_index()) >= n_delegates)
              throw Error(ErrorId::DanglingReference, "delegate_index " + std::to_string(d->delegate_index()) + " names no delegate", {},
                          where + ".chains[" + std::to_string(c) + "].instructions[" + std::to_string(i) + "]");
            const auto* del = plan->delegates()->Get(static_cast<flatbuffers::uoffset_t>(d->delegate_index()));
            ++delegates[del->id() ? del->id()->str() : "?"];
            calls.emplace_back(d, static_cast<std::size_t>(d->delegate_index()));
            break;
          }
          default: ++other[et::EnumNameInstructionArguments(in->instr_args_type())]; break;
        }
      }
    }
  const bool one_vulkan = kernels.empty() && other.empty() && calls.size() == 1 && delegates.count("VulkanBackend");
  if (!one_vulkan) {
    auto list = [](const std::map<std::string, int>& m) {
      std::string s;
      for (const auto& [k, n] : m) s += (s.empty() ? "" : ", ") + k + (n > 1 ? " x" + std::to_string(n) : "");
      return s.empty() ? std::string("none") : s;
    };
    throw Error(ErrorId::Feature,
                "method \"" + name + "\" is not one Vulkan delegate: kernel calls: " + list(kernels) + "; delegate calls: " +
                    list(delegates) + (other.empty() ? "" : "; other instructions: " + list(other)) +
                    " (nnbridge reads a method that is one DelegateCall to VulkanBackend; choose another with -I pte.method=NAME)",
                {}, where);
  }
  VulkanCall v;
  v.call = calls[0].first;
  v.delegate = calls[0].second;
  const auto* del = plan->delegates()->Get(static_cast<flatbuffers::uoffset_t>(v.delegate));
  const std::string dw = where + ".delegates[" + std::to_string(v.delegate) + "]";
  if (!del->processed()) throw Error(ErrorId::MalformedOther, "the delegate has no processed data reference", {}, dw + ".processed");
  v.location = del->processed()->location();
  v.index = del->processed()->index();
  if (v.location == et::DataLocation::SEGMENT) {
    if (!p.segments() || v.index >= p.segments()->size())
      throw Error(ErrorId::DanglingReference, "processed data names segment " + std::to_string(v.index) + ", which does not exist", {},
                  dw + ".processed.index");
  } else if (v.location == et::DataLocation::INLINE) {
    if (!p.backend_delegate_data() || v.index >= p.backend_delegate_data()->size() || !p.backend_delegate_data()->Get(v.index)->data())
      throw Error(ErrorId::DanglingReference, "processed data names backend_delegate_data[" + std::to_string(v.index) + "], which does not exist",
                  {}, dw + ".processed.index");
  } else {
    throw Error(ErrorId::BadEncoding, "processed.location " + std::to_string(int(v.location)) + " is not INLINE or SEGMENT", {},
                dw + ".processed.location");
  }
  return v;
}

}  // namespace nnbridge::formats::pte
