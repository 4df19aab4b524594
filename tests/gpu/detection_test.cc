// opencl armnn.DetectionPostProcess (ops_detection.cc, detection.cl) against results worked out
// by hand next to each check, on inputs whose scores tie so that the order among equal scores
// decides which overlapping box survives; cpu (cpu_ref/src/kernels/detection_post_process.cc,
// Arm NN 20.08 CpuRef's algorithm) must give the same. Ties come out in the order of libstdc++'s
// std::partial_sort (a heap select over the first k, then a heap sort; bits/stl_heap.h), traced
// below. Then both backends on random inputs full of ties, and the refusals they share.
#include <algorithm>
#include <cmath>
#include <random>

#include <doctest/doctest.h>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/gpu.h"
#include "support/paths.h"
#include "have_opencl.h"

using namespace nnbridge;
using Shape = std::vector<int64_t>;

namespace {

TensorType f32(Shape s) { return TensorType{DataType::Float32, std::move(s), false, std::nullopt}; }

struct Dpp {
  int64_t boxes = 0, classes = 0, rows = 0;
  AttrMap attrs;
};

// One armnn.DetectionPostProcess as the Arm NN reader builds it: graph inputs box_encodings
// [1, N, 4] and scores [1, N, C + 1], the anchors [N, 4] a constant wired third, outputs
// detection_boxes [1, rows, 4], detection_classes and detection_scores [1, rows],
// num_detections [1].
Graph dpp_graph(const Dpp& d, const std::vector<float>& anchors) {
  Graph g;
  Node n{"armnn.DetectionPostProcess", "dpp", {}, {}, d.attrs};
  n.attrs["armnn.constInputs"] = Attr(std::vector<std::string>{"anchors"});
  auto add = [&g](std::string name, TensorType t) {
    g.values.push_back(Value{std::move(name), std::move(t), {}, {}});
    return static_cast<ValueId>(g.values.size() - 1);
  };
  g.inputs = {add("box_encodings", f32({1, d.boxes, 4})), add("scores", f32({1, d.boxes, d.classes + 1}))};
  const ValueId a = add("anchors", f32({d.boxes, 4}));
  g.values[a].constant = Buffer::copy_of(std::as_bytes(std::span<const float>(anchors)));
  n.inputs = {g.inputs[0], g.inputs[1], a};
  g.outputs = {add("detection_boxes", f32({1, d.rows, 4})), add("detection_classes", f32({1, d.rows})),
               add("detection_scores", f32({1, d.rows})), add("num_detections", f32({1}))};
  n.outputs = g.outputs;
  g.nodes.push_back(std::move(n));
  return g;
}

AttrMap descriptor(bool regular, int64_t max_detections, int64_t per_box, int64_t per_class, int64_t classes,
                   double score_threshold, double iou_threshold) {
  const std::string p = "armnn.descriptor.";
  return AttrMap{{p + "useRegularNms", Attr(regular)},
                 {p + "maxDetections", Attr(max_detections)},
                 {p + "maxClassesPerDetection", Attr(per_box)},
                 {p + "detectionsPerClass", Attr(per_class)},
                 {p + "numClasses", Attr(classes)},
                 {p + "nmsScoreThreshold", Attr(score_threshold)},
                 {p + "nmsIouThreshold", Attr(iou_threshold)},
                 {p + "scaleX", Attr(10.0)},
                 {p + "scaleY", Attr(10.0)},
                 {p + "scaleW", Attr(5.0)},
                 {p + "scaleH", Attr(5.0)}};
}

TensorMap dpp_inputs(const Dpp& d, const std::vector<float>& enc, const std::vector<float>& scores) {
  TensorMap in;
  in["box_encodings"] = HostTensor::from_values<float>(f32({1, d.boxes, 4}), std::span<const float>(enc));
  in["scores"] = HostTensor::from_values<float>(f32({1, d.boxes, d.classes + 1}), std::span<const float>(scores));
  return in;
}

std::vector<float> output(const TensorMap& m, const std::string& name) {
  auto v = m.at(name).values<float>();
  return {v.begin(), v.end()};
}

// Four boxes of height and width 1 (zero encodings: exp(0) = 1, so the corners are exact):
// box 0 [0, 0, 1, 1]; box 1 [0, 0.25, 1, 1.25], whose IoU with box 0 is 0.75 / 1.25 = 0.6;
// box 2 [3, 0, 4, 1] and box 3 [6, 0, 7, 1], apart from every other. Anchors (yc, xc, h, w).
const std::vector<float> kAnchors{0.5f, 0.5f, 1, 1, 0.5f, 0.75f, 1, 1, 3.5f, 0.5f, 1, 1, 6.5f, 0.5f, 1, 1};
const std::vector<float> kZeroEncodings(16, 0.f);
const std::vector<float> kBox0{0, 0, 1, 1}, kBox1{0, 0.25f, 1, 1.25f}, kBox2{3, 0, 4, 1}, kBox3{6, 0, 7, 1};

std::vector<float> rows_of(std::initializer_list<std::vector<float>> rows) {
  std::vector<float> v;
  for (const auto& r : rows) v.insert(v.end(), r.begin(), r.end());
  return v;
}

// Runs `g` on opencl and on cpu, checks each against the expected outputs.
void check_both(const Graph& g, const TensorMap& in, const std::vector<float>& boxes, const std::vector<float>& classes,
                const std::vector<float>& scores, float count) {
  const TensorMap got = gpu::backend()->prepare(g, {})->run(in);
  const TensorMap cpu = cpu_ref::backend()->prepare(g, {})->run(in);
  for (const TensorMap* m : {&got, &cpu}) {
    CAPTURE((m == &got ? "opencl" : "cpu"));
    CHECK(output(*m, "detection_boxes") == boxes);
    CHECK(output(*m, "detection_classes") == classes);
    CHECK(output(*m, "detection_scores") == scores);
    CHECK(output(*m, "num_detections") == std::vector<float>{count});
  }
}

}  // namespace

TEST_CASE("opencl DetectionPostProcess regular NMS: tied scores ranked as libstdc++'s partial_sort ranks them") {
  if (!test::have_opencl()) return;
  // Two classes A (0) and B (1); scores per box (background, A, B):
  //   box 0 (0, .9, .05), box 1 (0, .9, .05), box 2 (0, .9, .4), box 3 (0, .9, .9).
  // Score threshold .1, IoU threshold .5, detectionsPerClass 3, maxDetections 4, 5 output rows.
  //
  // Class A keeps all four boxes with .9. partial_sort(4 of 4), all equal: make_heap over
  // [0 1 2 3] sifts position 1 (its one child, position 3, moves up: [0 3 2 1]) then position 0
  // (down the right child, position 2: [2 3 0 1]); sort_heap pops the top to the back three
  // times: [0 3 1 2], [3 1 0 2], [1 3 0 2]. So the walk is box 1, 3, 0, 2: box 1 is taken and
  // suppresses box 0 (IoU .6 > .5), box 3 is taken, box 0 is skipped, box 2 is taken (a stable
  // sort would have taken box 0 and dropped box 1). Class A: box 1, box 3, box 2.
  // Class B keeps box 2 (.4) and box 3 (.9) (.05 < .1): box 3 then box 2, both taken.
  //
  // Entries e0..e4 = (box 1, A, .9), (box 3, A, .9), (box 2, A, .9), (box 3, B, .9), (box 2, B, .4).
  // partial_sort(4 of 5): make_heap over the first four gives [2 3 0 1] as above; e4 (.4) does
  // not go before the top (.9) and stays out; sort_heap gives [1 3 0 2]: e1, e3, e0, e2.
  Dpp d{4, 2, 5, descriptor(true, 4, 1, 3, 2, 0.1, 0.5)};
  const std::vector<float> scores{0, .9f, .05f, 0, .9f, .05f, 0, .9f, .4f, 0, .9f, .9f};
  check_both(dpp_graph(d, kAnchors), dpp_inputs(d, kZeroEncodings, scores),
             rows_of({kBox3, kBox3, kBox1, kBox2, {0, 0, 0, 0}}), {0, 1, 0, 0, 0}, {.9f, .9f, .9f, .9f, 0}, 4);

  // detectionsPerClass 1 and maxDetections 2: class A takes box 1 (the first of its walk),
  // class B box 3; entries (box 1, A, .9), (box 3, B, .9) sort as [0 1] (two equal: make_heap
  // swaps them, the one pop swaps them back). Rows past the two are zeros.
  d.attrs = descriptor(true, 2, 1, 1, 2, 0.1, 0.5);
  const std::vector<float> zero{0, 0, 0, 0};
  check_both(dpp_graph(d, kAnchors), dpp_inputs(d, kZeroEncodings, scores), rows_of({kBox1, kBox3, zero, zero, zero}),
             {0, 1, 0, 0, 0}, {.9f, .9f, 0, 0, 0}, 2);
}

TEST_CASE("opencl DetectionPostProcess fast NMS: per-box ties, CpuRef's first-N-entries quirk") {
  if (!test::have_opencl()) return;
  // Three classes, maxClassesPerDetection 2: each box's two best classes form the entries
  // e = 2 * box + rank. Scores (background, c0, c1, c2):
  //   box 0 (0, .5, .7, .7), box 1 (0, .7, .1, .7), box 2 (0, .95, 0, 0), box 3 (0, 0, .95, 0).
  // Box 0, partial_sort(2 of 3) over (.5 .7 .7): make_heap over [0 1] puts class 0 (the
  // smallest) on top: [0 1]; class 2 goes before it and replaces it: [1 2]; the pop gives [2 1].
  // e0 = (c2, .7), e1 = (c1, .7). Box 1 over (.7 .1 .7): heap [1 0], class 2 replaces class 1:
  // [0 2], the pop gives [2 0]: e2 = (c2, .7), e3 = (c0, .7).
  // NMS scans the first N = 4 entries only (boxes 2 and 3, with .95, are never looked at) and
  // reads entry e's corners from box e. All four tie: partial_sort(4 of 4) walks e1, e3, e0, e2
  // (the order traced in the regular case). e1 (box 1's corners) is taken and suppresses e0
  // (box 0's corners, IoU .6); e3 (box 3) is taken; e0 is skipped; e2 (box 2) is taken: three,
  // maxDetections. Output boxes are each entry's own box: e1 box 0, e3 box 1, e2 box 1.
  Dpp d{4, 3, 4, descriptor(false, 3, 2, 1, 3, 0.1, 0.5)};
  const std::vector<float> scores{0, .5f, .7f, .7f, 0, .7f, .1f, .7f, 0, .95f, 0, 0, 0, 0, .95f, 0};
  check_both(dpp_graph(d, kAnchors), dpp_inputs(d, kZeroEncodings, scores), rows_of({kBox0, kBox1, kBox1, {0, 0, 0, 0}}),
             {1, 0, 2, 0}, {.7f, .7f, .7f, 0}, 3);

  // One class per box: the entries are the boxes, each with its best class. partial_sort(1 of
  // 3) keeps the first class and replaces it only by one that goes before it (a greater score):
  // box 0 (.5 .7 .7) c1 (c2 ties with c1 and stays out), box 1 c0, box 2 c0, box 3 c1, scores
  // .7, .7, .95, .95. partial_sort(4 of 4) over them: make_heap sifts position 1 (its child 3,
  // .95, goes before it and stays below: [0 1 2 3]), then position 0: the hole moves down to the
  // child that does not go before the other (position 1, .7) and on to position 3, and 0, pushed
  // back up, passes the .95 and stops under 1 (.7 does not go before .7): [1 0 2 3]; the pops
  // give [0 3 2 1], [3 2 0 1], [2 3 0 1]. Walk: box 2, box 3, box 0 (taken, suppressing box 1):
  // three, maxDetections.
  d.attrs = descriptor(false, 3, 1, 1, 3, 0.1, 0.5);
  check_both(dpp_graph(d, kAnchors), dpp_inputs(d, kZeroEncodings, scores), rows_of({kBox2, kBox3, kBox0, {0, 0, 0, 0}}),
             {0, 1, 1, 0}, {.95f, .95f, .7f, 0}, 3);
}

TEST_CASE("opencl DetectionPostProcess equals cpu on random inputs full of ties") {
  if (!test::have_opencl()) return;
  // Oracle: cpu. Scores from four levels (most boxes tie), overlapping anchors, both NMS kinds,
  // every limit from 0 up; one graph in eight with hundreds of boxes (more than the selection's
  // work-group has items, so each item filters a run of several). The decoded corners go through
  // exp, so they are compared within 1e-6.
  std::mt19937 rng(20080);
  auto uniform = [&rng](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int t = 0; t < 48; ++t) {
    const int64_t n = t % 8 == 7 ? pick(300, 700) : pick(1, 40), c = pick(1, 5);
    const bool regular = t % 2 == 0;
    const int scale = n > 40 ? 10 : 1;  // limits for hundreds of boxes
    const int64_t max_detections = pick(0, 10) * scale, per_box = pick(1, static_cast<int>(c) + 1), per_class = pick(0, 4) * scale;
    const double score_threshold = 0.25 * pick(0, 2), iou_threshold = 0.1 * pick(1, 6);
    Dpp d{n, c, pick(0, 12), descriptor(regular, max_detections, per_box, per_class, c, score_threshold, iou_threshold)};
    std::vector<float> anchors, enc, scores;
    for (int64_t i = 0; i < n; ++i) {
      anchors.insert(anchors.end(), {uniform(0, 2), uniform(0, 2), uniform(0.5f, 1.5f), uniform(0.5f, 1.5f)});
      enc.insert(enc.end(), {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)});
      for (int64_t k = 0; k <= c; ++k) scores.push_back(0.25f * static_cast<float>(pick(0, 3)));
    }
    CAPTURE(t);
    const Graph g = dpp_graph(d, anchors);
    const TensorMap in = dpp_inputs(d, enc, scores);
    const TensorMap got = gpu::backend()->prepare(g, {})->run(in);
    const TensorMap want = cpu_ref::backend()->prepare(g, {})->run(in);
    for (const char* name : {"detection_classes", "detection_scores", "num_detections"})
      CHECK(output(got, name) == output(want, name));
    const std::vector<float> gb = output(got, "detection_boxes"), wb = output(want, "detection_boxes");
    REQUIRE(gb.size() == wb.size());
    for (std::size_t i = 0; i < gb.size(); ++i) CHECK(std::fabs(gb[i] - wb[i]) <= 1e-6f * (1 + std::fabs(wb[i])));
  }
}

TEST_CASE("opencl DetectionPostProcess refuses what cpu refuses (the exec floor's reading)") {
  if (!test::have_opencl()) return;
  Dpp d{4, 2, 3, {}};
  for (const char* backend : {"opencl", "cpu"}) {
    CAPTURE(backend);
    auto prepare = [&](const Graph& g) {
      return (std::string(backend) == "cpu" ? cpu_ref::backend() : gpu::backend())->prepare(g, {});
    };
    // maxClassesPerDetection 0 with fast NMS; numClasses 0; scores of the wrong width.
    d.attrs = descriptor(false, 3, 0, 1, 2, 0.1, 0.5);
    CHECK_THROWS_AS(prepare(dpp_graph(d, kAnchors)), const Error&);
    d.attrs = descriptor(true, 3, 1, 1, 0, 0.1, 0.5);
    CHECK_THROWS_AS(prepare(dpp_graph(d, kAnchors)), const Error&);
    Dpp wide = d;
    wide.attrs = descriptor(true, 3, 1, 1, 1, 0.1, 0.5);
    try {
      prepare(dpp_graph(wide, kAnchors));
      FAIL("scores [1, 4, 3] with numClasses 1 were accepted");
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::Invalid);
      CHECK(std::string(e.what()).find("numClasses + 1") != std::string::npos);
    }
  }
}
