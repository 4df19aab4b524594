// .ptd files (FlatTensor): reading named data, writing it, and the "ptd" format handler.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "executorch/flat_tensor_generated.h"
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/pte.h"
#include "nnbridge/narrow.h"

namespace nnbridge::formats::pte {

namespace fb = ::flat_tensor_flatbuffer;

namespace {

constexpr uint64_t kSegmentAlignment = 128;  // FlatTensorConfig.segment_alignment
constexpr uint64_t kFlatbufferAlignment = 16;

std::string at(const char* vec, std::size_t i) { return std::string(vec) + "[" + std::to_string(i) + "]"; }

}  // namespace

NamedData read_ptd(const Source& src, const LoadOptions& o, const std::string& prefix) {
  const VerifierLimits limits = verifier_limits(o, prefix);
  check_input_size(src.bytes.size(), limits, prefix);
  const FlatTensorHeader h = parse_flat_tensor_header(src.bytes);
  const auto* base = reinterpret_cast<const uint8_t*>(src.bytes.data());
  const std::size_t fb_end = static_cast<std::size_t>(h.flatbuffer_offset + h.flatbuffer_size);
  flatbuffers::Verifier::Options vo;
  vo.max_depth = limits.max_depth;
  vo.max_tables = limits.max_tables;
  flatbuffers::Verifier verifier(base, fb_end, vo);
  if (!fb::FlatTensorBufferHasIdentifier(base))
    throw Error(ErrorId::BadIdentifier, "file identifier is not FT01", {}, "file_identifier");
  if (!fb::VerifyFlatTensorBuffer(verifier)) throw Error(ErrorId::VerifyFailed, "FlatTensor verification failed", {}, "flatbuffer");
  const fb::FlatTensor* ft = fb::GetFlatTensor(base);
  if (ft->version() != 0)
    throw Error(ErrorId::Version, "FlatTensor version " + std::to_string(ft->version()) + " (nnbridge reads version 0)", {},
                "version");
  std::vector<std::pair<uint64_t, uint64_t>> segs;
  if (ft->segments())
    for (flatbuffers::uoffset_t k = 0; k < ft->segments()->size(); ++k) {
      const fb::DataSegment* s = ft->segments()->Get(k);
      if (s->offset() > h.segment_data_size || s->size() > h.segment_data_size - s->offset())
        throw Error(ErrorId::Truncated, "segment [" + std::to_string(s->offset()) + ", +" + std::to_string(s->size()) +
                                              ") lies outside the " + std::to_string(h.segment_data_size) + "-byte segment data",
                    {}, at("segments", k));
      segs.emplace_back(h.segment_base_offset + s->offset(), s->size());
    }
  NamedData nd;
  if (ft->named_data())
    for (flatbuffers::uoffset_t k = 0; k < ft->named_data()->size(); ++k) {
      const fb::NamedData* e = ft->named_data()->Get(k);
      if (!e->key()) throw Error(ErrorId::MalformedOther, "an entry without a key", {}, at("named_data", k) + ".key");
      if (e->segment_index() >= segs.size())
        throw Error(ErrorId::DanglingReference, "segment_index " + std::to_string(e->segment_index()) + " names no segment (" +
                                            std::to_string(segs.size()) + " segments)", {}, at("named_data", k) + ".segment_index");
      NamedData::Entry entry;
      entry.key = e->key()->str();
      entry.segment = e->segment_index();
      auto [off, size] = segs[e->segment_index()];
      entry.bytes = src.view(static_cast<std::size_t>(off), static_cast<std::size_t>(size));
      entry.layout = e->tensor_layout();
      if (!nd.by_key.emplace(entry.key, nd.entries.size()).second)
        throw Error(ErrorId::DuplicateName, "the key \"" + entry.key + "\" appears twice", {}, at("named_data", k) + ".key");
      nd.entries.push_back(std::move(entry));
    }
  return nd;
}

std::vector<uint8_t> write_ptd(const std::vector<PtdEntry>& entries) {
  // Segments: one per distinct blob, in entry order, aligned to 128 (lcm with the Vulkan
  // delegate's alignment of 16 is 128).
  // Equal blobs found by content through a hash map: linear in the bytes, not quadratic in the
  // entries (many weights of one size are common).
  std::vector<std::span<const std::byte>> blobs;
  std::vector<uint32_t> index;
  std::unordered_map<std::string_view, uint32_t> seen;
  for (const PtdEntry& e : entries) {
    const std::string_view content(reinterpret_cast<const char*>(e.bytes.data()), e.bytes.size());
    auto [it, fresh] = seen.emplace(content, static_cast<uint32_t>(blobs.size()));
    if (fresh) blobs.push_back(e.bytes);
    index.push_back(it->second);
  }
  flatbuffers::FlatBufferBuilder b(1024);
  std::vector<flatbuffers::Offset<fb::DataSegment>> segs;
  std::vector<uint64_t> offsets;
  uint64_t end = 0;
  for (const auto& blob : blobs) {
    const uint64_t off = align_up(end, kSegmentAlignment);
    offsets.push_back(off);
    end = off + blob.size();
  }
  // flatc builds from JSON in field order: the segments vector's tables, then each named-data
  // entry's key, layout and table.
  for (std::size_t k = 0; k < blobs.size(); ++k) segs.push_back(fb::CreateDataSegment(b, offsets[k], blobs[k].size()));
  auto seg_vec = b.CreateVector(segs);
  std::vector<flatbuffers::Offset<fb::NamedData>> named;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const PtdEntry& e = entries[k];
    auto key = b.CreateString(e.key);
    flatbuffers::Offset<fb::TensorLayout> layout;
    if (e.layout) {
      const int8_t st = scalar_type(e.layout->dtype);
      if (st < 0) throw Error(ErrorId::DataType, "ExecuTorch has no scalar type for " + std::string(to_string(e.layout->dtype)),
                              {}, "named_data[" + std::to_string(k) + "]");
      std::vector<int32_t> sizes;
      for (int64_t d : e.layout->shape)
        sizes.push_back(narrow_field<int32_t>(d, "named_data[" + std::to_string(k) + "].tensor_layout.sizes"));
      std::vector<uint8_t> order(e.layout->shape.size());
      if (e.dim_order.empty()) std::iota(order.begin(), order.end(), uint8_t{0});
      else order.assign(e.dim_order.begin(), e.dim_order.end());
      auto sz = b.CreateVector(sizes);
      auto dord = b.CreateVector(order);
      layout = fb::CreateTensorLayout(b, static_cast<executorch_flatbuffer::ScalarType>(st), sz, dord);
    }
    named.push_back(fb::CreateNamedData(b, key, index[k], layout));
  }
  auto named_vec = b.CreateVector(named);
  fb::FinishFlatTensorBuffer(b, fb::CreateFlatTensor(b, 0, seg_vec, named_vec));
  std::span<const uint8_t> flat(b.GetBufferPointer(), b.GetSize());
  const uint64_t header_len = align_up(FlatTensorHeader::kLength, kFlatbufferAlignment);
  const uint64_t base = align_up(flat.size() + header_len, kSegmentAlignment);
  std::vector<uint8_t> header = {'F', 'H', '0', '1'};
  put_u32(header, FlatTensorHeader::kLength);
  put_u64(header, header_len);
  put_u64(header, flat.size());
  put_u64(header, base);
  put_u64(header, end);
  header.resize(header_len, 0);
  std::vector<uint8_t> out = insert_header(flat, header);
  out.resize(base, 0);
  for (std::size_t k = 0; k < blobs.size(); ++k) {
    out.resize(base + offsets[k], 0);
    const auto* p = reinterpret_cast<const uint8_t*>(blobs[k].data());
    out.insert(out.end(), p, p + blobs[k].size());
  }
  return out;
}

namespace {

Graph read_ptd_graph(const Source& src, const LoadOptions& o) {
  NamedData nd = read_ptd(src, o, "ptd");
  Graph g;
  g.source_format = "ptd";
  for (std::size_t k = 0; k < nd.entries.size(); ++k) {
    const NamedData::Entry& e = nd.entries[k];
    Value v;
    v.name = e.key;
    v.attrs[keys::kPtdSegment] = Attr(int64_t(e.segment));
    const auto* layout = static_cast<const fb::TensorLayout*>(e.layout);
    if (layout) {
      auto dt = ir_dtype(static_cast<int8_t>(layout->scalar_type()));
      if (!dt) throw Error(ErrorId::DataType, "scalar type " + std::to_string(int(layout->scalar_type())) + " has no nnbridge dtype",
                           {}, "named_data[" + std::to_string(k) + "].tensor_layout.scalar_type");
      v.type.dtype = *dt;
      if (layout->sizes())
        for (int32_t d : *layout->sizes()) v.type.shape.push_back(d);
      if (layout->dim_order()) {
        std::vector<int64_t> order(layout->dim_order()->begin(), layout->dim_order()->end());
        v.attrs[keys::kPtdDimOrder] = Attr(std::move(order));
      }
      auto need = v.type.byte_size();
      if (!need || static_cast<uint64_t>(*need) > e.bytes.size())
        throw Error(ErrorId::Shape, "the tensor_layout needs more bytes than the segment's " + std::to_string(e.bytes.size()), {},
                    "named_data[" + std::to_string(k) + "].tensor_layout");
      v.constant = e.bytes.slice(0, static_cast<std::size_t>(*need));
    } else {
      v.type.dtype = DataType::UInt8;
      v.type.shape = {static_cast<int64_t>(e.bytes.size())};
      v.constant = e.bytes;
    }
    g.add_value(std::move(v));
  }
  std::vector<std::string> names;
  for (const auto& e : nd.entries) names.push_back(e.key);
  g.metadata[keys::kPtdKeys] = Attr(std::move(names));  // for info: the keys, in file order
  return g;
}

void write_ptd_graph(const Graph& g, const std::filesystem::path& path, const SaveOptions&) {
  if (!g.nodes.empty() || !g.inputs.empty())
    throw Error(ErrorId::NoForm, "a .ptd holds named data only, and this graph has " + std::to_string(g.nodes.size()) +
                                            " nodes and " + std::to_string(g.inputs.size()) +
                                            " inputs: write a .pte (named data it does not hold goes to the .ptd beside it)",
                path.string());
  std::vector<PtdEntry> entries;
  for (const Value& v : g.values) {
    if (!v.constant) continue;
    PtdEntry e;
    e.key = v.name;
    e.bytes = v.constant->bytes();
    const bool raw = v.type.dtype == DataType::UInt8 && v.type.shape.size() == 1 && !v.attrs.count(keys::kPtdDimOrder);
    if (!raw) {
      e.layout = v.type;
      if (auto it = v.attrs.find(keys::kPtdDimOrder); it != v.attrs.end() && it->second.is<std::vector<int64_t>>())
        e.dim_order = it->second.get<std::vector<int64_t>>();
    }
    entries.push_back(std::move(e));
  }
  auto bytes = write_ptd(entries);
  write_file_atomic(path, std::as_bytes(std::span<const uint8_t>(bytes)));
}

}  // namespace

FormatHandler ptd_handler() {
  FormatHandler h;
  h.name = "ptd";
  h.description = "ExecuTorch named data (.ptd, FlatTensor FT01): one constant per key";
  h.extensions = {"ptd"};
  h.reader_options = verifier_limit_options("ptd");
  h.option_docs = verifier_limit_option_docs("ptd");
  h.sniff = [](std::span<const std::byte> b) { return identifier_like(b, "FT"); };
  h.read = read_ptd_graph;
  h.write = write_ptd_graph;
  return h;
}

}  // namespace nnbridge::formats::pte
