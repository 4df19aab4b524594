// The released numbering of every enum whose value changes what a network computes.
//
// Oracle: flatc compiles hand-written JSON that spells each enum value by its NUMBER (so a
// mis-numbered ArmnnSchema.fbs cannot hide behind a name), and the `cpu` backend's results
// are compared with the operation's formula computed here by hand (std::tanh, std::erf, ...;
// the numbering is upstream Arm NN's src/armnnSerializer/ArmnnSchema.fbs). Layers the cpu
// backend has no kernel for are checked by their decoded IR op and attributes instead.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/exec.h"
#include "nnbridge/io.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

// Arm NN DataType numbers used below.
constexpr int kFloat32 = 1, kSigned32 = 3, kBoolean = 4;

struct Tensor {
  std::vector<int64_t> shape;
  int dtype = kFloat32;
};

std::string info(const Tensor& t) {
  std::string dims;
  for (size_t i = 0; i < t.shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(t.shape[i]);
  return R"({"dimensions": [)" + dims + R"(], "dataType": )" + std::to_string(t.dtype) + "}";
}

// Input layers x0, x1, ... (binding ids 0, 1, ...), the layer (index 10) and Output layer "y".
std::string net(const std::string& layer, const std::string& fields, const std::vector<Tensor>& ins, const Tensor& out) {
  std::string layers, ids, slots;
  for (size_t i = 0; i < ins.size(); ++i) {
    layers += R"({"layer_type": "InputLayer", "layer": {"base": {"base": {"index": )" + std::to_string(i) +
              R"(, "layerName": "x)" + std::to_string(i) +
              R"(", "layerType": "Input", "inputSlots": [], "outputSlots": [{"index": 0, "tensorInfo": )" +
              info(ins[i]) + R"(}]}, "layerBindingId": )" + std::to_string(i) + "}}},\n";
    ids += (i ? ", " : "") + std::to_string(i);
    slots += std::string(i ? ", " : "") + R"({"index": )" + std::to_string(i) +
             R"(, "connection": {"sourceLayerIndex": )" + std::to_string(i) + R"(, "outputSlotIndex": 0}})";
  }
  const std::string type = layer.substr(0, layer.size() - 5);
  layers += R"({"layer_type": ")" + layer + R"(", "layer": {"base": {"index": 10, "layerName": "op", "layerType": ")" +
            type + R"(", "inputSlots": [)" + slots + R"(], "outputSlots": [{"index": 0, "tensorInfo": )" + info(out) +
            "}]}" + (fields.empty() ? "" : ", " + fields) + "}},\n";
  layers += R"({"layer_type": "OutputLayer", "layer": {"base": {"base": {"index": 20, "layerName": "y",
    "layerType": "Output", "inputSlots": [{"index": 0, "connection": {"sourceLayerIndex": 10, "outputSlotIndex": 0}}],
    "outputSlots": []}, "layerBindingId": 0}}})";
  return R"({"layers": [)" + layers + R"(], "inputIds": [)" + ids +
         R"(], "outputIds": [0], "featureVersions": {"bindingIdsScheme": 1}})";
}

Graph load_json(const std::string& json, const std::string& stem) {
  auto bin = flatc_binary(json, stem);
  REQUIRE_MESSAGE(!bin.empty(), "flatc refused: " << json);
  return load(bin);
}

TensorType type_of(const Tensor& t) {
  TensorType tt;
  tt.dtype = t.dtype == kBoolean ? DataType::Bool : t.dtype == kSigned32 ? DataType::Int32 : DataType::Float32;
  tt.shape = t.shape;
  return tt;
}

// Runs the one-layer network on cpu; inputs as doubles (converted to the input's dtype).
std::vector<double> run_cpu(const std::string& layer, const std::string& fields, const std::vector<Tensor>& ins,
                            const std::vector<std::vector<double>>& data, const Tensor& out, const std::string& stem) {
  Graph g = load_json(net(layer, fields, ins, out), stem);
  cpu_ref::register_backend();
  TensorMap feed;
  for (size_t i = 0; i < ins.size(); ++i) {
    TensorType t = type_of(ins[i]);
    if (t.dtype == DataType::Float32) {
      std::vector<float> v(data[i].begin(), data[i].end());
      feed["x" + std::to_string(i)] = HostTensor::from_values<float>(t, v);
    } else if (t.dtype == DataType::Int32) {
      std::vector<int32_t> v(data[i].begin(), data[i].end());
      feed["x" + std::to_string(i)] = HostTensor::from_values<int32_t>(t, v);
    } else {
      std::vector<uint8_t> v(data[i].begin(), data[i].end());
      feed["x" + std::to_string(i)] = HostTensor::from_values<uint8_t>(t, v);
    }
  }
  auto result = find_backend("cpu")->prepare(g, {})->run(feed);
  return result.at("y").to_double();
}

void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-5));
  }
}

std::vector<double> map1(const std::vector<double>& x, const std::function<double(double)>& f) {
  std::vector<double> y;
  for (double v : x) y.push_back(f(v));
  return y;
}
std::vector<double> map2(const std::vector<double>& a, const std::vector<double>& b,
                         const std::function<double(double, double)>& f) {
  std::vector<double> y;
  for (size_t i = 0; i < a.size(); ++i) y.push_back(f(a[i], b[i]));
  return y;
}

}  // namespace

TEST_CASE("armnn enum numbers: ActivationFunction 0..12 compute their functions on cpu") {
  const std::vector<double> x = {-2.0, -0.5, 0.5, 2.0}, pos = {0.25, 1.0, 2.25, 4.0};
  const double a = 1.5, b = 0.5;
  struct Case {
    int value;
    bool positive;  // Sqrt: positive inputs only
    std::function<double(double)> f;
  };
  const std::vector<Case> cases = {
      {0, false, [](double v) { return 1 / (1 + std::exp(-v)); }},                   // Sigmoid
      {1, false, [&](double v) { return a * std::tanh(b * v); }},                     // TanH
      {2, false, [&](double v) { return a * v + b; }},                                // Linear
      {3, false, [](double v) { return std::max(0.0, v); }},                          // ReLu
      {4, false, [&](double v) { return std::min(a, std::max(b, v)); }},              // BoundedReLu
      {5, false, [](double v) { return std::log1p(std::exp(v)); }},                   // SoftReLu
      {6, false, [&](double v) { return v > 0 ? v : a * v; }},                        // LeakyReLu
      {7, false, [](double v) { return std::fabs(v); }},                              // Abs
      {8, true, [](double v) { return std::sqrt(v); }},                               // Sqrt
      {9, false, [](double v) { return v * v; }},                                     // Square
      {10, false, [&](double v) { return v >= 0 ? v : a * (std::exp(v) - 1); }},      // Elu
      {11, false, [](double v) { return v * std::min(6.0, std::max(0.0, v + 3)) / 6; }},  // HardSwish
      {12, false, [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }},  // Gelu
  };
  for (const auto& c : cases) {
    CAPTURE(c.value);
    const auto& in = c.positive ? pos : x;
    std::string fields = R"("descriptor": {"activationFunction": )" + std::to_string(c.value) + R"(, "a": 1.5, "b": 0.5})";
    check_close(run_cpu("ActivationLayer", fields, {{{4}}}, {in}, {{4}}, "act" + std::to_string(c.value)), map1(in, c.f));
  }
}

TEST_CASE("armnn enum numbers: BinaryOperation 0..7 (SqDiff 6, Power 7) compute on cpu") {
  const std::vector<double> p = {1, 2, 3, 4}, q = {2, 2, 0.5, 3};
  const std::vector<std::function<double(double, double)>> f = {
      [](double u, double v) { return u + v; },                 // 0 Add
      [](double u, double v) { return u / v; },                 // 1 Div
      [](double u, double v) { return std::max(u, v); },        // 2 Maximum
      [](double u, double v) { return std::min(u, v); },        // 3 Minimum
      [](double u, double v) { return u * v; },                 // 4 Mul
      [](double u, double v) { return u - v; },                 // 5 Sub
      [](double u, double v) { return (u - v) * (u - v); },    // 6 SqDiff
      [](double u, double v) { return std::pow(u, v); },        // 7 Power
  };
  for (int op = 0; op < 8; ++op) {
    CAPTURE(op);
    std::string fields = R"("descriptor": {"operation": )" + std::to_string(op) + "}";
    check_close(run_cpu("ElementwiseBinaryLayer", fields, {{{4}}, {{4}}}, {p, q}, {{4}}, "bin" + std::to_string(op)),
                map2(p, q, f[size_t(op)]));
  }
  // The names flatc accepts compile to those numbers.
  for (auto [name, number] : {std::pair{"SqDiff", 6}, std::pair{"Power", 7}}) {
    auto by_name = flatc_binary(net("ElementwiseBinaryLayer", std::string(R"("descriptor": {"operation": ")") + name + "\"}",
                                    {{{4}}, {{4}}}, {{4}}),
                                std::string("bin_") + name);
    auto by_number = flatc_binary(net("ElementwiseBinaryLayer", R"("descriptor": {"operation": )" + std::to_string(number) + "}",
                                      {{{4}}, {{4}}}, {{4}}),
                                  std::string("bin_n") + std::to_string(number));
    CHECK(file_bytes(by_name) == file_bytes(by_number));
  }
}

TEST_CASE("armnn enum numbers: UnaryOperation 0..8 compute on cpu") {
  const std::vector<double> x = {0.25, 1.0, 2.5, 4.0};
  const std::vector<std::function<double(double)>> f = {
      [](double v) { return std::fabs(v); },       // 0 Abs
      [](double v) { return 1 / std::sqrt(v); },   // 1 Rsqrt
      [](double v) { return std::sqrt(v); },       // 2 Sqrt
      [](double v) { return std::exp(v); },        // 3 Exp
      [](double v) { return -v; },                 // 4 Neg
      nullptr,                                     // 5 LogicalNot (Boolean, below)
      [](double v) { return std::log(v); },        // 6 Log
      [](double v) { return std::sin(v); },        // 7 Sin
      [](double v) { return std::ceil(v); },       // 8 Ceil
  };
  for (int op = 0; op < 9; ++op) {
    if (!f[size_t(op)]) continue;
    CAPTURE(op);
    std::string fields = R"("descriptor": {"operation": )" + std::to_string(op) + "}";
    check_close(run_cpu("ElementwiseUnaryLayer", fields, {{{4}}}, {x}, {{4}}, "un" + std::to_string(op)),
                map1(x, f[size_t(op)]));
  }
  check_close(run_cpu("ElementwiseUnaryLayer", R"("descriptor": {"operation": 5})", {{{4}, kBoolean}}, {{0, 1, 1, 0}},
                      {{4}, kBoolean}, "un5"),
              {1, 0, 0, 1});
}

TEST_CASE("armnn enum numbers: ComparisonOperation 0..5 and LogicalBinaryOperation 0..1 compute on cpu") {
  const std::vector<double> p = {1, 2, 3}, q = {2, 2, 2};
  const std::vector<std::vector<double>> want = {
      {0, 1, 0}, {0, 0, 1}, {0, 1, 1}, {1, 0, 0}, {1, 1, 0}, {1, 0, 1}};  // ==, >, >=, <, <=, !=
  for (int op = 0; op < 6; ++op) {
    CAPTURE(op);
    std::string fields = R"("descriptor": {"operation": )" + std::to_string(op) + "}";
    check_close(run_cpu("ComparisonLayer", fields, {{{3}}, {{3}}}, {p, q}, {{3}, kBoolean}, "cmp" + std::to_string(op)),
                want[size_t(op)]);
  }
  const std::vector<double> u = {0, 0, 1, 1}, v = {0, 1, 0, 1};
  check_close(run_cpu("LogicalBinaryLayer", R"("descriptor": {"operation": 0})", {{{4}, kBoolean}, {{4}, kBoolean}},
                      {u, v}, {{4}, kBoolean}, "and"),
              {0, 0, 0, 1});
  check_close(run_cpu("LogicalBinaryLayer", R"("descriptor": {"operation": 1})", {{{4}, kBoolean}, {{4}, kBoolean}},
                      {u, v}, {{4}, kBoolean}, "or"),
              {0, 1, 1, 1});
}

TEST_CASE("armnn enum numbers: ReduceOperation 0..4 and ArgMinMaxFunction 0..1 compute on cpu") {
  const std::vector<double> x = {1, 5, 2, -3, 4, 0.5};  // [2, 3]
  const std::vector<std::vector<double>> want = {
      {8, 1.5}, {5, 4}, {8.0 / 3, 0.5}, {1, -3}, {10, -6}};  // Sum, Max, Mean, Min, Prod over axis 1
  for (int op = 0; op < 5; ++op) {
    CAPTURE(op);
    std::string fields = R"("descriptor": {"keepDims": false, "axis": [1], "reduceOperation": )" + std::to_string(op) + "}";
    check_close(run_cpu("ReduceLayer", fields, {{{2, 3}}}, {x}, {{2}}, "red" + std::to_string(op)), want[size_t(op)]);
  }
  // ArgMinMax: Min 0, Max 1 (Arm NN's Signed32 indices).
  check_close(run_cpu("ArgMinMaxLayer", R"("descriptor": {"argMinMaxFunction": 0, "axis": 1})", {{{2, 3}}}, {x},
                      {{2}, kSigned32}, "argmin"),
              {0, 0});
  check_close(run_cpu("ArgMinMaxLayer", R"("descriptor": {"argMinMaxFunction": 1, "axis": 1})", {{{2, 3}}}, {x},
                      {{2}, kSigned32}, "argmax"),
              {1, 1});
}

TEST_CASE("armnn enum numbers: PoolingAlgorithm, PaddingMethod and DataLayout compute on cpu") {
  // 3x3 input, 2x2 windows, stride 2, one padded row (bottom) and column (right): output 2x2.
  // Window (r, c) covers rows 2r..2r+1 and columns 2c..2c+1; padded cells are outside 0..2.
  const std::vector<double> img = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto pool = [&](int algo, bool exclude) {
    std::vector<double> out;
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 2; ++c) {
        double mx = -1e30, sum = 0, sq = 0;
        int valid = 0;
        for (int i = 2 * r; i < 2 * r + 2; ++i)
          for (int j = 2 * c; j < 2 * c + 2; ++j)
            if (i < 3 && j < 3) {
              double v = img[size_t(i * 3 + j)];
              mx = std::max(mx, v), sum += v, sq += v * v, ++valid;
            }
        double count = exclude ? valid : 4;
        out.push_back(algo == 0 ? mx : algo == 1 ? sum / count : std::sqrt(sq / count));
      }
    return out;
  };
  for (int layout : {0, 1}) {  // NHWC 0, NCHW 1: one channel, so the data is the same
    for (int algo : {0, 1, 2}) {
      for (int method : {0, 1}) {  // IgnoreValue 0, Exclude 1
        if (algo == 0 && method == 0) continue;  // max ignores the padding either way
        CAPTURE(layout);
        CAPTURE(algo);
        CAPTURE(method);
        std::string fields = R"("descriptor": {"poolType": )" + std::to_string(algo) +
                             R"(, "padRight": 1, "padBottom": 1, "poolWidth": 2, "poolHeight": 2, "strideX": 2,
                                "strideY": 2, "outputShapeRounding": 0, "paddingMethod": )" +
                             std::to_string(method) + R"(, "dataLayout": )" + std::to_string(layout) + "}";
        Tensor in{layout == 0 ? std::vector<int64_t>{1, 3, 3, 1} : std::vector<int64_t>{1, 1, 3, 3}};
        Tensor out{layout == 0 ? std::vector<int64_t>{1, 2, 2, 1} : std::vector<int64_t>{1, 1, 2, 2}};
        check_close(run_cpu("Pooling2dLayer", fields, {in}, {img}, out,
                            "pool" + std::to_string(layout) + std::to_string(algo) + std::to_string(method)),
                    pool(algo, method == 1));
      }
    }
  }
  // NHWC vs NCHW with two channels: the same logical tensor, laid out both ways.
  const std::vector<double> nchw = {1, 2, 3, 4, 10, 20, 30, 40};  // [1, 2, 2, 2]
  const std::vector<double> nhwc = {1, 10, 2, 20, 3, 30, 4, 40};  // [1, 2, 2, 2] as N H W C
  std::string common = R"("poolType": 0, "poolWidth": 2, "poolHeight": 2, "strideX": 1, "strideY": 1)";
  check_close(run_cpu("Pooling2dLayer", R"("descriptor": {)" + common + R"(, "dataLayout": 1})", {{{1, 2, 2, 2}}}, {nchw},
                      {{1, 2, 1, 1}}, "pool_nchw"),
              {4, 40});
  check_close(run_cpu("Pooling2dLayer", R"("descriptor": {)" + common + R"(, "dataLayout": 0})", {{{1, 2, 2, 2}}}, {nhwc},
                      {{1, 1, 1, 2}}, "pool_nhwc"),
              {4, 40});
}

TEST_CASE("armnn enum numbers: OutputShapeRounding 0..1 reads as ceil_mode") {
  for (int rounding : {0, 1}) {
    CAPTURE(rounding);
    std::string fields = R"("descriptor": {"poolType": 0, "poolWidth": 3, "poolHeight": 3, "strideX": 2, "strideY": 2,
                            "outputShapeRounding": )" +
                         std::to_string(rounding) + R"(, "dataLayout": 1})";
    int64_t o = rounding ? 2 : 1;  // (4 - 3) / 2 + 1, rounded down or up
    Graph g = load_json(net("Pooling2dLayer", fields, {{{1, 1, 4, 4}}}, {{1, 1, o, o}}), "round" + std::to_string(rounding));
    const Node* n = node_named(g, "op");
    REQUIRE(n);
    CHECK(n->op == "MaxPool");
    CHECK(n->attrs.at("ceil_mode") == Attr(int64_t(rounding)));
  }
}

TEST_CASE("armnn enum numbers: PaddingMode 0..2 compute on cpu") {
  const std::vector<double> x = {1, 2, 3};
  const std::vector<std::vector<double>> want = {
      {9, 9, 1, 2, 3, 9, 9}, {3, 2, 1, 2, 3, 2, 1}, {2, 1, 1, 2, 3, 3, 2}};  // constant 9, reflect, symmetric
  for (int mode = 0; mode < 3; ++mode) {
    CAPTURE(mode);
    std::string fields = R"("descriptor": {"padList": [0, 0, 2, 2], "padValue": 9, "paddingMode": )" +
                         std::to_string(mode) + "}";
    check_close(run_cpu("PadLayer", fields, {{{1, 3}}}, {x}, {{1, 7}}, "pad" + std::to_string(mode)), want[size_t(mode)]);
  }
}

TEST_CASE("armnn enum numbers: ResizeMethod 0..1 compute on cpu") {
  // NHWC [1, 1, 2, 1] -> [1, 1, 4, 1]; Arm NN's default mapping: source x = dst x * (2 / 4).
  const std::vector<double> x = {0, 10};
  const std::vector<std::vector<double>> want = {{0, 0, 10, 10}, {0, 5, 10, 10}};  // nearest (floor), bilinear (clamped)
  for (int method : {0, 1}) {
    CAPTURE(method);
    std::string fields = R"("descriptor": {"targetHeight": 1, "targetWidth": 4, "method": )" + std::to_string(method) +
                         R"(, "dataLayout": 0})";
    check_close(run_cpu("ResizeLayer", fields, {{{1, 1, 2, 1}}}, {x}, {{1, 1, 4, 1}}, "resize" + std::to_string(method)),
                want[size_t(method)]);
  }
}

TEST_CASE("armnn enum numbers: DataType 0..10 read as their element types") {
  // 2 and 5 are the deprecated spellings of 6 and 7 (QuantisedAsymm8, QuantisedSymm16).
  const std::vector<DataType> want = {DataType::Float16, DataType::Float32,  DataType::QAsymmU8, DataType::Int32,
                                      DataType::Bool,    DataType::QSymmS16, DataType::QAsymmU8, DataType::QSymmS16,
                                      DataType::QAsymmS8, DataType::QSymmS8, DataType::Int64};
  for (int dt = 0; dt <= 10; ++dt) {
    CAPTURE(dt);
    Graph g = load_json(net("FloorLayer", "", {{{2}, dt}}, {{2}, dt}), "dtype" + std::to_string(dt));
    REQUIRE(g.inputs.size() == 1);
    CHECK(g.values[g.inputs[0]].type.dtype == want[size_t(dt)]);
  }
}

TEST_CASE("armnn enum numbers: NormalizationAlgorithmChannel/Method choose LRN or the native layer") {
  // Only Across (0) + LocalBrightness (0) is ONNX's LRN; the other combinations stay Arm NN's own.
  for (int channel : {0, 1})
    for (int method : {0, 1}) {
      CAPTURE(channel);
      CAPTURE(method);
      std::string fields = R"("descriptor": {"normChannelType": )" + std::to_string(channel) + R"(, "normMethodType": )" +
                           std::to_string(method) + R"(, "normSize": 3, "alpha": 0.5, "beta": 0.75, "k": 1, "dataLayout": 1})";
      Graph g = load_json(net("NormalizationLayer", fields, {{{1, 3, 1, 1}}}, {{1, 3, 1, 1}}),
                          "norm" + std::to_string(channel) + std::to_string(method));
      const Node* n = node_named(g, "op");
      REQUIRE(n);
      CHECK(n->op == (channel == 0 && method == 0 ? "LRN" : "armnn.Normalization"));
    }
}

TEST_CASE("armnn enum numbers: ScatterNdFunction is Update 0 .. Min 4 and has no Mul") {
  const std::string base = R"("descriptor": {"m_Function": )";
  for (int fn = 0; fn <= 4; ++fn) {
    CAPTURE(fn);
    Graph g = load_json(net("ScatterNdLayer", base + std::to_string(fn) + "}", {{{5}}, {{3, 1}, kSigned32}, {{3}}}, {{5}}),
                        "scatter" + std::to_string(fn));
    const Node* n = node_named(g, "op");
    REQUIRE(n);
    // The function survives as its number, whatever op the reader maps the layer to.
    auto it = n->attrs.find("armnn.descriptor.m_Function");
    int64_t got = it == n->attrs.end() ? 0 : it->second.get<int64_t>();
    if (it == n->attrs.end() && n->attrs.count("reduction")) {
      static const char* names[] = {"none", "add", "sub", "max", "min"};
      CHECK(n->attrs.at("reduction") == Attr(std::string(names[fn])));
    } else {
      CHECK(got == fn);
    }
  }
  // flatc knows the names Update..Min and refuses Mul.
  CHECK(!flatc_binary(net("ScatterNdLayer", base + R"("Min"})", {{{5}}, {{3, 1}, kSigned32}, {{3}}}, {{5}}), "sc_min").empty());
  CHECK(flatc_binary(net("ScatterNdLayer", base + R"("Mul"})", {{{5}}, {{3, 1}, kSigned32}, {{3}}}, {{5}}), "sc_mul").empty());
}
