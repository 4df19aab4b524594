// Reading a .pte: the Vulkan-delegated method as its VkGraph, with named data resolved.
#include <filesystem>
#include <map>
#include <set>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/vkgraph.h"
#include "program.h"

namespace nnbridge::formats::pte {

namespace {

std::string option(const LoadOptions& o, const std::string& key) {
  auto it = o.options.find(key);
  return it == o.options.end() ? std::string() : it->second;
}

std::string file_name(const Source& src) { return src.file.empty() ? std::string("the .pte") : src.file; }

// The .ptd to read: the option (from the current folder, else the .pte's folder), else the
// file beside the .pte with its stem; empty when there is none.
std::filesystem::path find_ptd(const Source& src, const LoadOptions& o) {
  namespace fs = std::filesystem;
  const std::string given = option(o, "pte.named_data");
  if (!given.empty()) {
    fs::path p(given);
    if (p.is_relative() && !fs::exists(p) && !src.path.empty() && fs::exists(src.path.parent_path() / p)) p = src.path.parent_path() / p;
    if (!fs::is_regular_file(p))
      throw Error(fs::exists(p) ? ErrorId::IoNotRegular : ErrorId::IoOpen, "the named-data file " + given + " (--named-data, reader option pte.named_data) does not exist or is not a file");
    return p;
  }
  if (src.path.empty()) return {};
  fs::path beside = src.path;
  beside.replace_extension(".ptd");
  return fs::is_regular_file(beside) ? beside : fs::path();
}

// Lines for `info`: every method's delegates and non-delegated kernels.
void describe(const et::Program& p, const ProgramView& v, Graph& g) {
  std::vector<std::string> methods, delegates, operators, named;
  if (p.execution_plan())
    for (const et::ExecutionPlan* plan : *p.execution_plan()) {
      const std::string m = plan->name() ? plan->name()->str() : "";
      methods.push_back(m);
      if (plan->delegates())
        for (const et::BackendDelegate* d : *plan->delegates()) {
          std::string line = m + ": " + (d->id() ? d->id()->str() : "?");
          if (const auto* ref = d->processed()) {
            if (ref->location() == et::DataLocation::SEGMENT && ref->index() < v.segments.size())
              line += ", " + std::to_string(v.segments[ref->index()].second) + " bytes, segment " + std::to_string(ref->index());
            else if (ref->location() == et::DataLocation::INLINE && p.backend_delegate_data() &&
                     ref->index() < p.backend_delegate_data()->size() && p.backend_delegate_data()->Get(ref->index())->data())
              line += ", " + std::to_string(p.backend_delegate_data()->Get(ref->index())->data()->size()) + " bytes, inline " +
                      std::to_string(ref->index());
          }
          delegates.push_back(line);
        }
      std::set<std::string> seen;
      if (plan->chains())
        for (const et::Chain* c : *plan->chains())
          if (c->instructions())
            for (const et::Instruction* in : *c->instructions())
              if (const auto* k = in->instr_args_as_KernelCall()) {
                const std::string n = operator_name(*plan, static_cast<std::size_t>(k->op_index()));
                if (seen.insert(n).second) operators.push_back(m + ": " + n);
              }
    }
  if (p.named_data())
    for (const et::NamedData* e : *p.named_data()) named.push_back(e->key() ? e->key()->str() : "");
  g.metadata[keys::kMethods] = Attr(std::move(methods));
  g.metadata[keys::kDelegates] = Attr(std::move(delegates));
  g.metadata[keys::kOperators] = Attr(std::move(operators));
  g.metadata[keys::kNamedKeys] = Attr(std::move(named));
}

// The method's input / output EValues must be tensors of the delegate graph's types.
void check_io(const et::ExecutionPlan& plan, const Graph& g, const std::string& where) {
  auto one = [&](const flatbuffers::Vector<int32_t>* ids, const std::vector<ValueId>& ours, const char* what) {
    const std::size_t n = ids ? ids->size() : 0;
    if (n != ours.size())
      throw Error(ErrorId::Arity, std::string("the method has ") + std::to_string(n) + " " + what + ", its Vulkan delegate " +
                                          std::to_string(ours.size()), {}, where + "." + what);
    for (std::size_t k = 0; k < n; ++k) {
      const std::string w = where + "." + what + "[" + std::to_string(k) + "]";
      const int32_t id = ids->Get(static_cast<flatbuffers::uoffset_t>(k));
      if (!plan.values() || id < 0 || static_cast<std::size_t>(id) >= plan.values()->size())
        throw Error(ErrorId::DanglingReference, "value " + std::to_string(id) + " is outside the method's values", {}, w);
      const et::Tensor* t = plan.values()->Get(static_cast<flatbuffers::uoffset_t>(id))->val_as_Tensor();
      if (!t) throw Error(ErrorId::Feature, "value " + std::to_string(id) + " is not a tensor", {}, w);
      const TensorType& want = g.values[ours[k]].type;
      std::vector<int64_t> sizes;
      if (t->sizes()) sizes.assign(t->sizes()->begin(), t->sizes()->end());
      auto dt = ir_dtype(static_cast<int8_t>(t->scalar_type()));
      if (!dt || *dt != want.dtype || sizes != want.shape)
        throw Error(!dt || *dt != want.dtype ? ErrorId::TypeMismatch : ErrorId::Shape,
                    "the method's tensor and the delegate's " + g.values[ours[k]].name + " differ in type or shape", {}, w);
    }
  };
  one(plan.inputs(), g.inputs, "inputs");
  one(plan.outputs(), g.outputs, "outputs");
}

}  // namespace

Graph read_pte(const Source& src, const LoadOptions& o) {
  const VerifierLimits limits = verifier_limits(o, "pte");
  check_input_size(src.bytes.size(), limits, "pte");
  const ProgramView v = view_program(src.bytes, limits);
  const et::Program& p = *v.program;
  const std::size_t plan_index = choose_method(p, option(o, "pte.method"));
  const et::ExecutionPlan* plan = p.execution_plan()->Get(static_cast<flatbuffers::uoffset_t>(plan_index));
  std::optional<VulkanCall> one;
  try {
    one = vulkan_call(p, plan_index);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::Unsupported) throw;
  }
  const std::filesystem::path ptd_path = find_ptd(src, o);
  std::optional<NamedData> ptd;
  std::shared_ptr<const MappedFile> ptd_file;
  if (!ptd_path.empty()) {
    ptd_file = MappedFile::open(ptd_path);
    Source ps{ptd_file->bytes(), ptd_file, ptd_path.string(), ptd_path};
    try {
      ptd = read_ptd(ps, o, "pte");
    } catch (const Error& e) {
      throw e.file().empty() ? e.with_file(ptd_path.string()) : e;
    }
  }
  if (!one) {
    // Not one Vulkan delegate: native nodes, for info and inspection (nothing runs them).
    Graph g = native_method(p, v, src, plan_index, ptd ? &*ptd : nullptr);
    describe(p, v, g);
    g.metadata[keys::kMethod] = Attr(plan->name() ? plan->name()->str() : std::string());
    g.source_format = "pte";
    return g;
  }
  const VulkanCall call = *one;

  // The payload: a segment, or inline data inside the flatbuffer.
  Source payload = src;
  std::string payload_where;
  if (call.location == et::DataLocation::SEGMENT) {
    auto [off, size] = v.segments.at(call.index);
    payload.bytes = src.bytes.subspan(off, size);
    payload_where = "segments[" + std::to_string(call.index) + "]";
  } else {
    const auto* data = p.backend_delegate_data()->Get(call.index)->data();
    const auto off = static_cast<std::size_t>(reinterpret_cast<const std::byte*>(data->data()) - src.bytes.data());
    payload.bytes = src.bytes.subspan(off, data->size());
    payload_where = "backend_delegate_data[" + std::to_string(call.index) + "]";
  }

  // Named data: the Program's segments first, then the .ptd.
  std::map<std::string, std::size_t, std::less<>> in_pte;
  if (p.named_data())
    for (flatbuffers::uoffset_t k = 0; k < p.named_data()->size(); ++k) {
      const et::NamedData* e = p.named_data()->Get(k);
      const std::string w = "named_data[" + std::to_string(k) + "]";
      if (!e->key()) throw Error(ErrorId::MalformedOther, "an entry without a key", {}, w + ".key");
      if (e->segment_index() >= v.segments.size())
        throw Error(ErrorId::DanglingReference, "segment_index " + std::to_string(e->segment_index()) + " names no segment", {}, w + ".segment_index");
      in_pte.emplace(e->key()->str(), e->segment_index());
    }
  vkgraph::NamedDataResolver named;
  named.where = file_name(src) + "'s named data" +
                (ptd ? " or " + ptd_path.string() : " (and no .ptd: none beside it with the same stem, none given)");
  named.how = "pass the .ptd that holds it with --named-data FILE.ptd (run, validate) or -I pte.named_data=FILE.ptd (info, convert, dump)";
  // A key found nowhere leaves its constant without data: info still shows the program, and
  // running it names the key (kExternalDataHint).
  named.missing_ok = true;
  const std::string hint = "not in " + named.where + ": " + named.how;
  named.find = [&](const std::string& key) -> std::optional<Buffer> {
    if (auto it = in_pte.find(key); it != in_pte.end()) {
      auto [off, size] = v.segments[it->second];
      return src.view(off, size);
    }
    if (ptd)
      if (auto it = ptd->by_key.find(key); it != ptd->by_key.end()) return ptd->entries[it->second].bytes;
    return std::nullopt;
  };
  Graph g;
  try {
    g = vkgraph::read_delegate_payload(payload, o, "pte", &named, hint, "pte");
  } catch (const Error& e) {
    if (!e.file().empty() && e.file() != src.file) throw;
    throw Error(e.id(), e.message(), {}, payload_where + (e.where().empty() ? "" : "." + e.where()));
  }
  check_io(*plan, g, "execution_plan[" + std::to_string(plan_index) + "]");

  describe(p, v, g);
  g.metadata[keys::kMethod] = Attr(plan->name() ? plan->name()->str() : std::string());
  const auto* head = reinterpret_cast<const uint8_t*>(src.bytes.data());
  g.metadata[keys::kProgram] = Attr(Bytes{std::vector<uint8_t>(head, head + v.program_size)});
  // Segments the writer cannot make again from the graph keep their bytes.
  std::map<std::string, std::size_t, std::less<>> held;  // named-data key -> its constant's size
  for (const auto& [key, buf] : vkgraph::named_constants(g)) held.emplace(key, buf.size());
  std::set<std::size_t> remade;
  if (call.location == et::DataLocation::SEGMENT) remade.insert(call.index);
  for (const auto& [key, seg] : in_pte)
    if (auto it = held.find(key); it != held.end() && it->second == v.segments[seg].second) remade.insert(seg);
  for (std::size_t k = 0; k < v.segments.size(); ++k)
    if (!remade.count(k)) {
      auto [off, size] = v.segments[k];
      g.metadata[keys::kSegment + std::to_string(k)] = Attr(Bytes{std::vector<uint8_t>(head + off, head + off + size)});
    }
  g.source_format = "pte";
  return g;
}

}  // namespace nnbridge::formats::pte
