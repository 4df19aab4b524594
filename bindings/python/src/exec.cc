// Running graphs (nnbridge/exec.h): prepare / Plan.run / run / validate, NumPy in and out
// without copies where the layout allows (arrays.cc).
#include <algorithm>
#include <cstdio>

#include "common.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/exec/option_keys.h"
#include "nnbridge/tensor_files.h"
#ifdef NNBRIDGE_PY_HAVE_OPENCL
#include "nnbridge/gpu.h"
#endif

namespace nnbridge::py_bind {

namespace {

// An error in reports: 3 significant digits, so 5.96e-08 does not print as std::to_string's 0.000000.
std::string error_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// A prepared graph: the plan and the copy of the graph it was prepared from (a Graph copy
/// shares the constant bytes, so the caller may go on editing theirs).
struct PyPlan {
  std::shared_ptr<const Graph> graph;
  std::shared_ptr<const Plan> plan;
  std::string backend;
  std::string path;  ///< loaded_path() of the graph prepared: the file its errors name, or ""
};

/// Runs `f`; an Error it throws without a file names `path` when there is one, as the CLI names
/// the model ("m.onnx: nodes[3]: ..."): the backends report the node, not the file.
template <class F>
auto naming_file(const std::string& path, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    if (path.empty() || !e.file().empty()) throw;
    throw e.with_file(path);
  }
}

BackendOptions backend_options(int threads, const std::vector<std::string>& extensions, const py::dict& kw, const std::string& backend,
                               py::handle custom_layers = py::none()) {
  BackendOptions o;
  if (!custom_layers.is_none()) {
    if (py::isinstance<py::list>(custom_layers) || py::isinstance<py::tuple>(custom_layers)) {
      for (auto c : custom_layers) o.custom_kernels.push_back(custom_kernel_set(c));
    } else {
      o.custom_kernels.push_back(custom_kernel_set(custom_layers));
    }
  }
  o.threads = threads;
  o.extensions = extensions;
  o.options = options_from_kwargs(kw, backend);
  exec::check_option_backends(o);  // a key of no registered backend: a misspelt name
  return o;
}

std::shared_ptr<const Backend> backend_named(const std::string& name) {
  if (auto b = find_backend(name)) return b;
  std::string names;
  for (const auto& b : all_backends()) names += (names.empty() ? "" : ", ") + b->name();
  throw Error(ErrorId::OptionValue, "no backend named \"" + name + "\" (available: " + names + ")");
}

PyPlan prepare_plan(const Graph& g, const std::string& backend, int threads, const std::vector<std::string>& extensions,
                    py::handle custom_layers, const py::dict& kw) {
  BackendOptions o = backend_options(threads, extensions, kw, backend, custom_layers);
  auto b = backend_named(backend);
  auto copy = std::make_shared<const Graph>(g);
  std::string path = loaded_path(g);
  py::gil_scoped_release nogil;
  std::shared_ptr<const Plan> plan = naming_file(path, [&] { return b->prepare(*copy, o); });
  return PyPlan{copy, plan, backend, std::move(path)};
}

py::dict run_plan(const PyPlan& p, const py::dict& inputs, bool cast) {
  TensorMap in = tensors_from_dict(inputs, p.plan->input_types(), "input", cast);
  TensorMap out;
  {
    py::gil_scoped_release nogil;
    out = naming_file(p.path, [&] { return p.plan->run(in); });
  }
  return tensors_to_dict(out);
}

// Plan.run_profiled: the outputs, and per step {node, name, op, backend, ms}.
py::tuple run_plan_profiled(const PyPlan& p, const py::dict& inputs, bool cast) {
  TensorMap in = tensors_from_dict(inputs, p.plan->input_types(), "input", cast);
  TensorMap out;
  std::vector<NodeTime> times;
  {
    py::gil_scoped_release nogil;
    out = naming_file(p.path, [&] { return p.plan->run_profiled(in, times); });
  }
  py::list steps;
  for (const NodeTime& t : times) {
    py::dict d;
    d["node"] = t.node, d["name"] = t.name, d["op"] = t.op, d["backend"] = t.backend, d["ms"] = t.ms;
    steps.append(d);
  }
  return py::make_tuple(tensors_to_dict(out), steps);
}

py::list types_list(const std::vector<std::pair<std::string, TensorType>>& types) {
  py::list l;
  for (const auto& [n, t] : types) l.append(py::make_tuple(n, t));
  return l;
}

std::vector<std::pair<std::string, TensorType>> declared(const Graph& g, const std::vector<ValueId>& ids) {
  std::vector<std::pair<std::string, TensorType>> out;
  for (ValueId id : ids)
    if (id < g.values.size()) out.emplace_back(g.values[id].name, g.values[id].type);
  return out;
}

}  // namespace

void bind_exec(py::module_& m) {
  py::class_<PyPlan>(m, "Plan", R"doc(
A graph prepared for one backend (nnbridge::Plan): shapes, memory and kernels chosen once;
run() may be called many times (and from several threads: it releases the GIL).
)doc")
      .def_readonly("backend", &PyPlan::backend, "str: the backend's name.")
      .def_property_readonly("inputs", [](const PyPlan& p) { return types_list(p.plan->input_types()); },
                             "list[tuple[str, TensorType]]: the graph inputs' resolved types, in graph order.")
      .def_property_readonly("outputs", [](const PyPlan& p) { return types_list(p.plan->output_types()); },
                             "list[tuple[str, TensorType]]: the graph outputs' resolved types.")
      .def_property_readonly(
          "placement",
          [](const PyPlan& p) {
            py::list l;
            for (const NodePlacement& n : p.plan->placement()) {
              py::dict d;
              d["node"] = n.node, d["name"] = n.name, d["op"] = n.op, d["backend"] = n.backend, d["fused_into"] = n.fused_into;
              d["fused_into_node"] = n.fused_into_node ? py::object(py::int_(*n.fused_into_node)) : py::object(py::none());
              l.append(d);
            }
            return l;
          },
          R"doc(
list[dict]: which backend runs each node (nnbridge::Plan::placement(), what ``nnbridge run --json``
prints as "placement"), in the order the steps run: ``node`` (index in Graph.nodes), ``name``,
``op``, ``backend`` (the prepared one, or one of its fallback list), ``fused_into`` (str: the
name of the node whose kernel computes this one as well, e.g. a Relu folded into the Conv before
it; ``""``, never None, when the node is not fused, and also when it is fused into a node
without a name) and ``fused_into_node`` (int: that node's index in Graph.nodes; None when the
node is not fused). So test ``p["fused_into_node"] is None`` for "not fused", not
``p["fused_into"] == ""``.
)doc")
      .def("run", &run_plan, py::arg("inputs"), py::kw_only(), py::arg("cast") = false, R"doc(
Runs the graph. ``inputs``: {graph input name: array-like}, one per graph input, of the input's
shape (-1 dims match any size) and of the input's storage dtype (``TensorType.numpy_dtype``:
float32, uint8 for qasymmu8, ...; a list is taken with the dtype numpy.asarray gives it). An
array that is C-contiguous and aligned is read in place, any other layout copied once. An array
of another dtype is refused, as the CLI refuses such a .npy file, unless ``cast=True``: then it
is converted with NumPy's unsafe casting (``astype``: 0.3 into uint8 becomes 0, 300 wraps to
44), which is the caller's choice. Returns {graph output name: numpy.ndarray}: read-only arrays
that view the backend's result buffers (``.base`` is an nnbridge.Buffer; no copy). Raises
InvalidError (a ValueError) naming the input for a missing, unknown or mis-shaped input, one of
another dtype (naming both dtypes) or one that cannot be converted (``.path`` None: the arrays
are the caller's); BackendError when a kernel fails, with ``.path`` the file the graph was
loaded from (see prepare()).
)doc")
      .def("run_profiled", &run_plan_profiled, py::arg("inputs"), py::kw_only(), py::arg("cast") = false, R"doc(
Runs the graph as run() does, timing each step (nnbridge::Plan::run_profiled). Returns
``(outputs, steps)``: ``outputs`` as run() returns them, ``steps`` a list with one dict per step
in the order the steps ran: ``node`` (int, index in Graph.nodes), ``name``, ``op``, ``backend``
and ``ms`` (float: wall-clock milliseconds on a steady clock, the step's threads together). A node
fused into another (``placement``'s ``fused_into``) has no step of its own: its time is in that
node's; a node computed at prepare (a folded constant) has none either. The steps' times do not
add up to the run, which also checks and converts inputs and outputs; the first run of a plan
also touches its memory for the first time, so time a later one. Raises what run() raises, and
UnsupportedError (nnbridge.unsupported.306) from a plan that does not time its steps: the opencl
backend's, and a cpu plan of a graph whose shapes depend on its input values (prepared anew at
each run, computing its nodes while it prepares).
)doc")
      .def("__repr__", [](const PyPlan& p) { return "<nnbridge.Plan on " + p.backend + ">"; });

  m.def("prepare", [](const Graph& g, const std::string& backend, int threads, std::vector<std::string> extensions,
                      py::handle custom_layers, const py::kwargs& kw) {
    return prepare_plan(g, backend, threads, extensions, custom_layers, kw);
  }, py::arg("graph"), py::arg("backend") = "cpu", py::kw_only(), py::arg("threads") = 0,
     py::arg("extensions") = std::vector<std::string>{}, py::arg("custom_layers") = py::none(), R"doc(
Prepares ``graph`` for ``backend`` ("cpu", "opencl"; see backends()) and returns a Plan.

``threads``: worker threads, 0 for all cores. ``extensions``: cpu extension libraries (.so
paths) with custom kernels. ``custom_layers``: a nnbridge.custom_layers.CustomLayers (or a
list of them) whose SimpleGPU layers the opencl backend runs. Other keyword arguments are backend options, namespaced by the
backend: ``device="0"`` / ``fallback="cpu"`` mean ``opencl.device`` / ``opencl.fallback``
(nnbridge/gpu.h). Raises InvalidError (unknown backend or option, inconsistent graph),
UnsupportedError (an op without a kernel, naming the node), BackendError, and errors naming an
extension library that cannot be loaded. When ``graph`` is the Graph nnbridge.load(path)
returned, an error about it has ``.path`` = that path (as ``nnbridge run`` names the model), and
so do the errors of the Plan's run(); ``.where`` (``"nodes[3]"``) indexes Graph.nodes.
)doc");

  m.def("run", [](const Graph& g, const py::dict& inputs, const std::string& backend, int threads, std::vector<std::string> extensions,
                  py::handle custom_layers, bool cast, const py::kwargs& kw) {
    return run_plan(prepare_plan(g, backend, threads, extensions, custom_layers, kw), inputs, cast);
  }, py::arg("graph"), py::arg("inputs"), py::arg("backend") = "cpu", py::kw_only(), py::arg("threads") = 0,
        py::arg("extensions") = std::vector<std::string>{}, py::arg("custom_layers") = py::none(), py::arg("cast") = false, R"doc(
Runs ``graph`` once on ``backend``: ``prepare(graph, backend, ...).run(inputs, cast=cast)``.

``inputs``: {graph input name: array-like} of each input's storage dtype (another dtype is
refused unless ``cast=True``, which converts with NumPy's unsafe casting); returns {graph
output name: read-only numpy.ndarray} (see Plan.run for dtypes and zero-copy rules). Prepare a
Plan to run a graph many times. Raises what prepare() and Plan.run() raise: InvalidError (a
ValueError) naming a missing, unknown, mis-shaped or mis-typed input, UnsupportedError naming a
node without a kernel, BackendError.
)doc");

  py::class_<OutputReport>(m, "OutputReport", "The comparison of one output of one backend (nnbridge::OutputReport).")
      .def_readonly("output", &OutputReport::output, "str: the graph output's name.")
      .def_readonly("backend", &OutputReport::backend)
      .def_readonly("max_abs_error", &OutputReport::max_abs_error, "float: max |actual - expected| in real values (quantized: dequantized).")
      .def_readonly("max_rel_error", &OutputReport::max_rel_error, "float: max |a - e| / |e| over elements with e != 0.")
      .def_readonly("max_steps", &OutputReport::max_steps, "int: quantized types: the largest difference in storage integers.")
      .def_readonly("atol", &OutputReport::atol,
                    "float: the absolute tolerance applied (validate's atol, or the default scaled to the expected output; "
                    "0 for integer, bool and quantized outputs).")
      .def_readonly("passed", &OutputReport::passed)
      .def_readonly("message", &OutputReport::message, "str: why it failed; empty when it passed.")
      .def("__bool__", [](const OutputReport& r) { return r.passed; })
      .def("__repr__", [](const OutputReport& r) {
        return "<nnbridge.OutputReport " + r.backend + "/" + r.output + (r.passed ? " passed" : " FAILED") + " max_abs_error=" +
               error_text(r.max_abs_error) + (r.message.empty() ? "" : ": " + r.message) + ">";
      });

  py::class_<ValidationReport>(m, "ValidationReport", R"doc(
What validate() found: ``outputs`` (list[OutputReport], backend-major then graph output order)
and ``passed`` (every output passed). Iterable; true when it passed.
)doc")
      .def_readonly("outputs", &ValidationReport::outputs)
      .def_property_readonly("passed", &ValidationReport::passed)
      .def("__bool__", &ValidationReport::passed)
      .def("__len__", [](const ValidationReport& r) { return r.outputs.size(); })
      .def("__iter__", [](const ValidationReport& r) { return py::make_iterator(r.outputs.begin(), r.outputs.end()); },
           py::keep_alive<0, 1>())
      .def("__str__", [](const ValidationReport& r) {
        std::string s;
        for (const OutputReport& o : r.outputs)
          s += o.backend + " " + o.output + ": " + (o.passed ? "passed" : "FAILED") + " (max abs " + error_text(o.max_abs_error) +
               ", max rel " + error_text(o.max_rel_error) + ")" + (o.message.empty() ? "" : ": " + o.message) + "\n";
        return s + (r.passed() ? "passed" : "FAILED");
      })
      .def("__repr__", [](const ValidationReport& r) {
        return "<nnbridge.ValidationReport " + std::string(r.passed() ? "passed" : "FAILED") + ", " + std::to_string(r.outputs.size()) +
               " outputs>";
      });

  m.def("validate", [](const Graph& g, const py::dict& inputs, std::vector<std::string> backends, const std::optional<py::dict>& expected,
                       std::optional<double> atol, double rtol, int64_t quantized_steps, int threads, py::handle custom_layers,
                       bool cast, const py::kwargs& kw) {
    TensorMap in = tensors_from_dict(inputs, declared(g, g.inputs), "input", cast);
    TensorMap exp;
    if (expected) {
      auto outs = declared(g, g.outputs);
      for (auto item : *expected) {
        std::string name = py::str(item.first);
        auto it = std::find_if(outs.begin(), outs.end(), [&](const auto& p) { return p.first == name; });
        if (it == outs.end()) throw Error(ErrorId::DanglingReference, "expected: \"" + name + "\" is not a graph output");
        const std::string what = "expected output \"" + name + "\"";
        exp.emplace(name, tensor_view(as_storage_array(item.second, it->second.dtype, what, cast), it->second, what));
      }
    }
    BackendOptions o = backend_options(threads, {}, kw, "", custom_layers);
    Tolerance tol{atol, rtol, quantized_steps};
    py::gil_scoped_release nogil;
    return validate(g, in, backends, tol, expected ? &exp : nullptr, o);
  }, py::arg("graph"), py::arg("inputs"), py::arg("backends") = std::vector<std::string>{"cpu"}, py::arg("expected") = py::none(),
     py::kw_only(), py::arg("atol") = py::none(), py::arg("rtol") = 1e-4, py::arg("quantized_steps") = 1, py::arg("threads") = 0,
     py::arg("custom_layers") = py::none(), py::arg("cast") = false, R"doc(
Runs ``graph`` on each of ``backends`` and compares every output (nnbridge::validate) with
``expected`` ({graph output name: array-like}), or, when it is None, with the first backend's
outputs (that reference backend then has no reports of its own; when it fails, every report
fails with "no reference outputs"). With ``expected`` None and one backend there is nothing to compare with: ``["cpu"]``
raises InvalidError ("nothing to compare with", the CLI's exit 2), any other lone backend is
compared with cpu (run first). Float outputs agree when |a - e| <= atol + rtol * |e|
elementwise (numpy.allclose's rule); ``atol`` None (the default) scales with each expected
output: 1e-5 * min(1, max|e|), at least the dtype's smallest normal number (so outputs of tiny
values are not passed by a bound larger than themselves); a number is applied as given.
Quantized outputs agree when they differ by at most ``quantized_steps`` storage integers;
integer and bool ones exactly. Inputs and expected arrays must have the graph values' storage
dtypes unless ``cast=True`` (as run()). Backend options are keyword arguments with the
backend's prefix (``**{"opencl.fallback": "cpu"}``). A backend that fails gives failed reports
carrying its message. Returns a ValidationReport. Raises InvalidError for bad inputs or expected
arrays (naming them), an empty backend list, a backend named twice, and the lone cpu above.
)doc");

  m.def("_input_addresses", [](const Graph& g, const py::dict& inputs, bool cast) {
    TensorMap in = tensors_from_dict(inputs, declared(g, g.inputs), "input", cast);
    py::dict d;
    for (const auto& [name, t] : in) d[py::str(name)] = reinterpret_cast<std::uintptr_t>(t.bytes().data());
    return d;
  }, py::arg("graph"), py::arg("inputs"), py::arg("cast") = false,
     "The address of the bytes each input tensor would be fed from (the conversion run() does): tests zero-copy.");

  m.def("tensor_file_names", [](const Graph& g, const std::string& role) {
    if (role != "input" && role != "output")
      throw Error(ErrorId::OptionValue, "role must be \"input\" or \"output\", not \"" + role + "\"");
    std::vector<std::string> names;
    for (ValueId id : role == "input" ? g.inputs : g.outputs) names.push_back(id < g.values.size() ? g.values[id].name : "");
    std::vector<std::string> files = tensor_file_stems(names, role);
    for (std::string& f : files) f += ".npy";
    return files;
  }, py::arg("graph"), py::arg("role") = "input", R"doc(
The ``.npy`` file name of each graph input (``role="input"``) or output (``"output"``), by
position, as ``nnbridge run`` reads and writes them (nnbridge/tensor_files.h): the name with
``%`` as ``%25``, ``/`` as ``%2F`` and NUL as ``%00`` (``dense/Softmax`` -> ``dense%2FSoftmax.npy``),
or ``input_<i>.npy`` / ``output_<i>.npy`` for an empty name, ``.`` or ``..``. Raises InvalidError
when two would share a file.
)doc");

  m.def("tensor_name", [](const std::string& file_name) -> std::optional<std::string> {
    std::string stem = file_name;
    if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".npy") == 0) stem.resize(stem.size() - 4);
    return tensor_name_of_stem(stem);
  }, py::arg("file_name"), R"doc(
The tensor name a file name spells (``"dense%2FSoftmax.npy"`` -> ``"dense/Softmax"``; a trailing
``.npy`` is dropped), or None when it is not a spelling nnbridge writes (a ``%`` not followed by
``25``, ``2F`` or ``00``). A positional fallback (``input_0.npy``) reads as its own text: match
it with tensor_file_names().
)doc");

  m.def("backends", [] {
    std::vector<std::string> names;
    for (const auto& b : all_backends()) names.push_back(b->name());
    return names;
  }, "The registered backends' names, sorted (\"cpu\", and \"opencl\" when this build has it).");

  m.def("opencl_devices", [] {
    py::list l;
#ifdef NNBRIDGE_PY_HAVE_OPENCL
    for (const gpu::DeviceInfo& d : gpu::list_devices()) {
      py::dict e;
      e["index"] = d.index;
      e["platform"] = d.platform;
      e["name"] = d.name;
      e["gpu"] = d.gpu;
      e["version"] = d.version;
      l.append(e);
    }
#endif
    return l;
  }, "The OpenCL devices the opencl backend can use (dicts: index, platform, name, gpu, version); empty without OpenCL.");
}

void register_backends() {
  cpu_ref::register_backend();
#ifdef NNBRIDGE_PY_HAVE_OPENCL
  gpu::register_backend();
#endif
}

}  // namespace nnbridge::py_bind
