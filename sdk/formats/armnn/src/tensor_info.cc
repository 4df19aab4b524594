#include "tensor_info.h"

#include <algorithm>
#include <limits>

#include "nnbridge/error.h"

namespace nnbridge::formats::armnn {

void diff_fields(const FieldMap& actual, const FieldMap& derived, const std::string& prefix, AttrMap& attrs) {
  std::vector<std::string> absent;
  for (const auto& [k, v] : actual) {
    auto it = derived.find(k);
    if (it == derived.end() || !(it->second == v)) attrs[prefix + k] = v;
  }
  for (const auto& [k, v] : derived)
    if (!actual.count(k)) absent.push_back(k);
  if (!absent.empty()) attrs[prefix + "absent"] = Attr(absent);
}

void overlay_fields(FieldMap& fields, const AttrMap& attrs, const std::string& prefix,
                    const std::function<bool(std::string_view)>& accept) {
  for (auto it = attrs.lower_bound(prefix); it != attrs.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    std::string key = it->first.substr(prefix.size());
    if (key == "absent") continue;
    if (accept && !accept(key)) continue;
    fields[key] = it->second;
  }
  if (auto it = attrs.find(prefix + "absent"); it != attrs.end() && it->second.is<std::vector<std::string>>())
    for (const auto& k : it->second.get<std::vector<std::string>>()) {
      // A removed table takes its fields with it.
      for (auto f = fields.lower_bound(k); f != fields.end() && f->first.compare(0, k.size(), k) == 0;)
        f = (f->first.size() == k.size() || f->first[k.size()] == '.' || f->first[k.size()] == '[') ? fields.erase(f)
                                                                                                   : std::next(f);
    }
}

DataType from_armnn_dtype(int64_t v, const std::string& where) {
  switch (v) {
    case 0: return DataType::Float16;
    case 1: return DataType::Float32;
    case 2: return DataType::QAsymmU8;  // QuantisedAsymm8, the old name of QAsymmU8
    case 3: return DataType::Int32;
    case 4: return DataType::Bool;
    case 5: return DataType::QSymmS16;  // QuantisedSymm16, the old name of QSymmS16
    case 6: return DataType::QAsymmU8;
    case 7: return DataType::QSymmS16;
    case 8: return DataType::QAsymmS8;
    case 9: return DataType::QSymmS8;
    case 10: return DataType::Int64;
    default: break;
  }
  throw Error(ErrorId::DataType, "unknown Arm NN dataType " + std::to_string(v), {}, where);
}

int64_t to_armnn_dtype(DataType t, const std::string& where) {
  switch (t) {
    case DataType::Float16: return 0;
    case DataType::Float32: return 1;
    case DataType::Int32: return 3;
    case DataType::Bool: return 4;
    case DataType::QAsymmU8: return 6;
    case DataType::QSymmS16: return 7;
    case DataType::QAsymmS8: return 8;
    case DataType::QSymmS8: return 9;
    case DataType::Int64: return 10;
    default: break;
  }
  throw Error(ErrorId::DataType, "Arm NN has no data type for " + std::string(to_string(t)), {}, where);
}

namespace {
bool quantized(DataType t) {
  return t == DataType::QAsymmU8 || t == DataType::QAsymmS8 || t == DataType::QSymmS8 || t == DataType::QSymmS16;
}
const Attr* get(const FieldMap& m, const char* k) {
  auto it = m.find(k);
  return it == m.end() ? nullptr : &it->second;
}
}  // namespace

// Known dimensions whose product does not fit int64 describe no tensor (sizes computed from
// them would wrap).
static void check_element_count(const TensorType& t, const std::string& where) {
  if (std::none_of(t.shape.begin(), t.shape.end(), [](int64_t d) { return d < 0; }) && !t.element_count())
    throw Error(ErrorId::BadEncoding, "the element count of the dimensions overflows int64", {}, where + ".dimensions");
}

TensorType tensor_type_of(const FieldMap& info, const std::string& where) {
  const auto& obj = object("armnnSerializer.TensorInfo");
  TensorType t;
  t.dtype = from_armnn_dtype(get_int(info, obj, "dataType"), where + ".dataType");
  int64_t dimensionality = get_int(info, obj, "dimensionality");
  auto dims = get_ints(info, "dimensions");
  // armnn::Dimensionality: NotSpecified 0 (unknown rank), Specified 1, Scalar 2. Arm NN gives a
  // Scalar one dimension of size 1 (TensorShape(Dimensionality::Scalar): GetNumDimensions() 1,
  // one element), and that is the shape its runtime hands out, so the IR says [1] too; the
  // dimensionality itself is kept as a field (armnn.*.dimensionality) for the round trip.
  if (dimensionality == 0) {
    t.unknown_rank = true;
  } else if (dimensionality == 2) {
    t.shape = {1};
  } else {
    if (!info.count("dimensions")) throw Error(ErrorId::MalformedOther, "missing dimensions", {}, where + ".dimensions");
    t.shape = dims;
    if (const Attr* s = get(info, "dimensionSpecificity"); s && s->is<std::vector<bool>>()) {
      const auto& spec = s->get<std::vector<bool>>();
      for (size_t i = 0; i < spec.size() && i < t.shape.size(); ++i)
        if (!spec[i]) t.shape[i] = -1;
    }
    check_element_count(t, where);
  }
  if (quantized(t.dtype)) {
    Quantization q;
    auto scales = get(info, "quantizationScales");
    if (scales && scales->is<std::vector<double>>() && !scales->get<std::vector<double>>().empty()) {
      q.scales = scales->get<std::vector<double>>();
      q.axis = get_int(info, obj, "quantizationDim");
    } else {
      q.scales = {get_float(info, obj, "quantizationScale")};
    }
    q.zero_points = {get_int(info, obj, "quantizationOffset")};
    t.quantization = q;
  }
  return t;
}

FieldMap derive_tensor_info(const TensorType& t, const std::string& where) {
  FieldMap m;
  std::vector<int64_t> dims;
  std::vector<bool> spec;
  bool any_unknown = false;
  for (auto d : t.shape) {
    dims.push_back(d < 0 ? 0 : d);
    spec.push_back(d >= 0);
    any_unknown |= d < 0;
  }
  if (!t.unknown_rank) m["dimensions"] = Attr(dims);
  if (any_unknown) m["dimensionSpecificity"] = Attr(spec);
  m["dataType"] = Attr(to_armnn_dtype(t.dtype, where + ".dataType"));
  // Arm NN's TensorInfo keeps scale 0 and offset 0 for non-quantized tensors, and writes them.
  double scale = 0.0;
  int64_t offset = 0, dim = 0;
  if (t.quantization) {
    const auto& q = *t.quantization;
    if (!q.scales.empty()) scale = q.scales[0];
    if (!q.zero_points.empty()) offset = q.zero_points[0];
    if (q.axis) {
      m["quantizationScales"] = Attr(q.scales);
      dim = *q.axis;
    }
  }
  m["quantizationScale"] = Attr(double(float(scale)));
  m["quantizationOffset"] = Attr(offset);
  m["quantizationDim"] = Attr(dim);
  // A rank-0 IR tensor (from ONNX, say) is Arm NN's Scalar, stored with dimensions [1].
  if (!t.unknown_rank && t.shape.empty()) m["dimensions"] = Attr(std::vector<int64_t>{1});
  m["dimensionality"] = Attr(int64_t(t.unknown_rank ? 0 : (t.shape.empty() ? 2 : 1)));
  m["isConstant"] = Attr(false);
  return m;
}

bool read_plain_tensor_info(const armnnSerializer::TensorInfo* info, TensorType& out, AttrMap* residuals,
                            const std::string& prefix) {
  // Mirrors derive_tensor_info: a known, non-empty shape (dimensionality 1, no specificity
  // vector), no per-axis scales, isConstant false, a current (non-deprecated) dataType, and
  // scale 0 / offset 0 unless the type is quantized.
  if (!info) return false;
  const auto* dims = info->dimensions();
  if (!dims || dims->size() == 0 || info->dimensionality() != 1 || info->dimensionSpecificity() ||
      info->quantizationScales() || info->quantizationDim() != 0 || info->isConstant())
    return false;
  switch (static_cast<int>(info->dataType())) {
    case 0: case 1: case 3: case 4: case 6: case 7: case 8: case 9: case 10: break;
    default: return false;
  }
  out = TensorType{};
  out.dtype = from_armnn_dtype(static_cast<int64_t>(info->dataType()), std::string());
  float scale = info->quantizationScale();
  int32_t offset = info->quantizationOffset();
  if (quantized(out.dtype)) {
    if (scale != scale) return false;  // NaN never compares equal to its derivation
    Quantization q;
    q.scales = {double(scale)};
    q.zero_points = {int64_t(offset)};
    out.quantization = std::move(q);
  } else if (scale != 0.0f || offset != 0) {
    if (!residuals) return false;
    out.shape.assign(dims->begin(), dims->end());
    if (!out.element_count()) return false;
    if (scale != 0.0f) (*residuals)[prefix + "quantizationScale"] = Attr(double(scale));
    if (offset != 0) (*residuals)[prefix + "quantizationOffset"] = Attr(int64_t(offset));
    return true;
  }
  out.shape.assign(dims->begin(), dims->end());
  // An element count past int64 takes the full path, which rejects it (check_element_count).
  return out.element_count().has_value();
}

TensorType read_tensor_info(const armnnSerializer::TensorInfo* info, const std::string& prefix, AttrMap& attrs,
                            const std::string& where) {
  if (!info) throw Error(ErrorId::MalformedOther, "missing TensorInfo", {}, where);
  if (TensorType t; read_plain_tensor_info(info, t, &attrs, prefix)) return t;
  FieldMap actual;
  read_fields(object("armnnSerializer.TensorInfo"), reinterpret_cast<const flatbuffers::Table*>(info), "", actual);
  TensorType t = tensor_type_of(actual, where);
  diff_fields(actual, derive_tensor_info(t, where), prefix, attrs);
  return t;
}

flatbuffers::uoffset_t write_tensor_info(flatbuffers::FlatBufferBuilder& b, const TensorType& t,
                                         const AttrMap& attrs, const std::string& prefix, const std::string& where) {
  // armnn::MaxNumOfTensorDimensions: Arm NN's TensorShape holds at most 5 dimensions, and its
  // deserializer refuses a file with more (the reader takes one).
  if (!t.unknown_rank && t.shape.size() > 5)
    throw Error(ErrorId::NoForm, "rank " + std::to_string(t.shape.size()) + ": Arm NN tensors have at most 5 dimensions", {}, where);
  FieldMap m = derive_tensor_info(t, where);
  overlay_fields(m, attrs, prefix);
  return build_table(b, object("armnnSerializer.TensorInfo"), "", m);
}

namespace {
// Arm NN stores constant data in words of the element's size (float32 as IntData, ...).
armnnSerializer::ConstTensorData kind_for(std::size_t elem) {
  switch (elem) {
    case 1: return armnnSerializer::ConstTensorData::ByteData;
    case 2: return armnnSerializer::ConstTensorData::ShortData;
    case 4: return armnnSerializer::ConstTensorData::IntData;
    case 8: return armnnSerializer::ConstTensorData::LongData;
    default: return armnnSerializer::ConstTensorData::NONE;
  }
}
}  // namespace

Value read_const_tensor(const armnnSerializer::ConstTensor* ct, const Source& src, const std::string& info_prefix,
                        const std::string& where, const TensorType* reference) {
  if (!ct) throw Error(ErrorId::MalformedOther, "missing ConstTensor", {}, where);
  Value v;
  if (reference) {
    if (!ct->info()) throw Error(ErrorId::MalformedOther, "missing TensorInfo", {}, where + ".info");
    FieldMap actual;
    read_fields(object("armnnSerializer.TensorInfo"), reinterpret_cast<const flatbuffers::Table*>(ct->info()), "",
                actual);
    v.type = tensor_type_of(actual, where + ".info");
    diff_fields(actual, derive_tensor_info(*reference, where + ".info"), info_prefix, v.attrs);
  } else {
    v.type = read_tensor_info(ct->info(), info_prefix, v.attrs, where + ".info");
  }
  if (v.type.unknown_rank) throw Error(ErrorId::MalformedOther, "a constant needs a known shape", {}, where + ".info");
  uint64_t count = 1;
  for (auto d : v.type.shape) {
    if (d < 0) throw Error(ErrorId::MalformedOther, "a constant needs known dimensions", {}, where + ".info.dimensions");
    if (d != 0 && count > std::numeric_limits<uint64_t>::max() / 8 / uint64_t(d))
      throw Error(ErrorId::BadEncoding, "element count overflows", {}, where + ".info.dimensions");
    count *= uint64_t(d);
  }
  std::size_t elem = element_size(v.type.dtype);
  auto want = kind_for(elem);
  if (ct->data_type() != want)
    throw Error(ErrorId::BadEncoding,
                std::string("data is ") + armnnSerializer::EnumNameConstTensorData(ct->data_type()) + ", " +
                    std::string(to_string(v.type.dtype)) + " needs " + armnnSerializer::EnumNameConstTensorData(want),
                {}, where + ".data_type");
  const uint8_t* p = nullptr;
  std::size_t n = 0;
  switch (ct->data_type()) {
    case armnnSerializer::ConstTensorData::ByteData:
      if (auto* d = ct->data_as_ByteData(); d && d->data()) p = reinterpret_cast<const uint8_t*>(d->data()->Data()), n = d->data()->size();
      break;
    case armnnSerializer::ConstTensorData::ShortData:
      if (auto* d = ct->data_as_ShortData(); d && d->data()) p = d->data()->Data(), n = d->data()->size() * 2;
      break;
    case armnnSerializer::ConstTensorData::IntData:
      if (auto* d = ct->data_as_IntData(); d && d->data()) p = d->data()->Data(), n = d->data()->size() * 4;
      break;
    case armnnSerializer::ConstTensorData::LongData:
      if (auto* d = ct->data_as_LongData(); d && d->data()) p = d->data()->Data(), n = d->data()->size() * 8;
      break;
    default: break;
  }
  if (!p) throw Error(ErrorId::MalformedOther, "missing data vector", {}, where + ".data.data");
  if (uint64_t(n) != count * elem)
    throw Error(ErrorId::MalformedOther,
                "data holds " + std::to_string(n) + " bytes, the TensorInfo needs " + std::to_string(count * elem), {},
                where + ".data.data");
  auto off = static_cast<std::size_t>(reinterpret_cast<const std::byte*>(p) - src.bytes.data());
  v.constant = src.view(off, n);
  return v;
}

flatbuffers::uoffset_t write_const_tensor(flatbuffers::FlatBufferBuilder& b, const Value& v,
                                          const std::string& info_prefix, const std::string& where) {
  if (!v.constant) throw Error(ErrorId::InvalidOther, "value " + v.name + " is not a constant", {}, where);
  std::size_t elem = element_size(v.type.dtype);
  auto kind = kind_for(elem);
  const auto& data = *v.constant;
  if (kind == armnnSerializer::ConstTensorData::NONE || data.size() % elem)
    throw Error(ErrorId::DataType, "constant " + v.name + " has no Arm NN data kind", {}, where);
  // The data vector first (children before parents), as raw little-endian words.
  std::size_t len = data.size() / elem;
  b.StartVector(len, elem);
  if (len) b.PushBytes(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  auto vec = b.EndVector(len);
  flatbuffers::uoffset_t holder;
  {
    auto s = b.StartTable();
    b.AddOffset(4, flatbuffers::Offset<void>(vec));
    holder = b.EndTable(s);
  }
  auto info = write_tensor_info(b, v.type, v.attrs, info_prefix, where + ".info");
  armnnSerializer::ConstTensorBuilder cb(b);
  cb.add_info(flatbuffers::Offset<armnnSerializer::TensorInfo>(info));
  cb.add_data_type(kind);
  cb.add_data(flatbuffers::Offset<void>(holder));
  return cb.Finish().o;
}

// Depthwise weights between Arm NN's two layouts: [M, I, H, W] <-> [1, H, W, I*M], where output
// channel o = i * M + m (Arm NN depthwise convention).
Value permute_depthwise(const Value& v, bool to_1hwo, int64_t in_channels) {
  const auto& s = v.type.shape;
  if (s.size() != 4) throw Error(ErrorId::NoForm, "depthwise weights " + v.name + " are not 4-D");
  int64_t M, I, H, W;
  if (to_1hwo) M = s[0], I = s[1], H = s[2], W = s[3];
  else {
    H = s[1], W = s[2];
    I = in_channels;
    if (I <= 0 || s[3] % I) throw Error(ErrorId::NoForm, "cannot split depthwise weights " + v.name);
    M = s[3] / I;
  }
  size_t e = element_size(v.type.dtype);
  const auto* src = v.constant->data();
  std::vector<std::byte> out(v.constant->size());
  for (int64_t m = 0; m < M; ++m)
    for (int64_t i = 0; i < I; ++i)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          size_t a = size_t(((m * I + i) * H + h) * W + w), b = size_t((h * W + w) * I * M + i * M + m);
          std::copy_n(src + (to_1hwo ? a : b) * e, e, out.data() + (to_1hwo ? b : a) * e);
        }
  Value r = v;
  r.type.shape = to_1hwo ? std::vector<int64_t>{1, H, W, I * M} : std::vector<int64_t>{M, I, H, W};
  r.constant = Buffer::owned(std::move(out));
  return r;
}

Value depthwise_from_oihw(const Value& v, bool to_1hwo, int64_t in_channels) {
  const auto& s = v.type.shape;
  if (s.size() != 4 || s[1] != 1)
    throw Error(ErrorId::NoForm, "depthwise weights " + v.name + " in OIHW are not [I*M, 1, H, W]");
  const int64_t O = s[0], H = s[2], W = s[3], I = in_channels;
  if (I <= 0 || O % I) throw Error(ErrorId::NoForm, "cannot split depthwise weights " + v.name + " by input channel");
  const int64_t M = O / I;
  const size_t e = element_size(v.type.dtype);
  const auto* src = v.constant->data();
  std::vector<std::byte> out(v.constant->size());
  // ONNX groups: output channel o = i * M + m reads input channel i (as Arm NN's depthwise).
  for (int64_t i = 0; i < I; ++i)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          const int64_t o = i * M + m;
          const size_t a = size_t((o * H + h) * W + w);
          const size_t b = to_1hwo ? size_t((h * W + w) * O + o) : size_t(((m * I + i) * H + h) * W + w);
          std::copy_n(src + a * e, e, out.data() + b * e);
        }
  Value r = v;
  r.type.shape = to_1hwo ? std::vector<int64_t>{1, H, W, O} : std::vector<int64_t>{M, I, H, W};
  r.constant = Buffer::owned(std::move(out));
  return r;
}

}  // namespace nnbridge::formats::armnn
